/**
 * Collections EMQX keeps as one list that PUT replaces (topic rewrite, auto subscribe): every
 * write reads the current list, changes one entry and PUTs the whole list back. Entries have no
 * id, so one is found by its content; an entry changed elsewhere meanwhile is refused, not
 * overwritten. It does not merge concurrent edits.
 * Example: `const rules = wholeList<Rule>('/mqtt/topic_rewrite'); await rules.add(rule);`.
 */
import { api } from '../lib/api.ts';
import { defineMessages, t } from '../lib/i18n.ts';
import { arrayList } from './resource.ts';

defineMessages({
  'wholeList.changed': { zh: '该条目已在别处被修改，请刷新列表后重试', en: 'This entry was changed elsewhere: reload the list and try again' },
});

/** The content of an entry, independent of key order, to find it again in a fresh list. */
export function entryKey(entry: object): string {
  return JSON.stringify(Object.entries(entry).sort(([a], [b]) => a.localeCompare(b)));
}

/** Lister and the three writes of a whole-list collection at `path`. */
export function wholeList<Row extends object>(path: string) {
  const load = () => api.get<Row[]>(path);
  const indexOf = (rows: Row[], row: Row) => {
    const i = rows.findIndex((r) => entryKey(r) === entryKey(row));
    if (i < 0) throw new Error(t('wholeList.changed'));
    return i;
  };
  let latest: Row[] = [];
  return {
    list: arrayList<Row>(path, (all) => (latest = all)),
    /** The list as last loaded, e.g. for a form rule refusing a repeated entry. */
    latest: () => latest,
    add: async (row: Row) => api.put<Row[]>(path, [...(await load()), row]),
    replace: async (old: Row, next: Row) => {
      const rows = await load();
      rows[indexOf(rows, old)] = next;
      return api.put<Row[]>(path, rows);
    },
    remove: async (old: Row) => {
      const rows = await load();
      rows.splice(indexOf(rows, old), 1);
      return api.put<Row[]>(path, rows);
    },
  };
}
