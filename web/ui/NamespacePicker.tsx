/**
 * The namespace picker of a 6.x list whose endpoints take `ns` (a `namespaced` ResourceDecl):
 * Global, or one of the managed namespaces (`GET /mt/managed_ns_list`), kept in the URL as `ns`
 * like any filter (lib/namespace.ts puts it on the requests). The global view says when other
 * namespaces exist.
 */
import { api } from '../lib/api.ts';
import { defineMessages, t } from '../lib/i18n.ts';
import { useQuery } from '../lib/query.ts';
import { useRemote } from '../lib/resources.ts';

defineMessages({
  'namespace.label': { zh: '命名空间', en: 'Namespace' },
  'namespace.global': { zh: '全局', en: 'Global' },
  'namespace.others': { zh: '仅显示全局对象。其他命名空间：{{count}} 个（选择一个以查看其对象）。', en: 'Showing global objects only. Other namespaces: {{count}} (pick one to see its objects).' },
});

/** emqx_mt_api.erl: at most 1000 managed namespaces (?MAX_NUM_TNS_CONFIGS), so one page holds them all. */
const loadNames = (signal: AbortSignal) => api.get<string[]>('/mt/managed_ns_list', { params: { limit: 1000 }, signal });

export function NamespacePicker() {
  const [query, setQuery] = useQuery();
  const names = useRemote('mt', loadNames).data ?? [];
  const ns = query.ns ?? '';
  return (
    <div class="filters" data-test="namespace-picker">
      <label class="filter inline">
        {t('namespace.label')}
        <select value={ns} data-test="namespace-select" onChange={(e) => setQuery({ ns: (e.target as HTMLSelectElement).value, page: undefined })}>
          <option value="">{t('namespace.global')}</option>
          {(ns && !names.includes(ns) ? [ns, ...names] : names).map((name) => <option key={name} value={name}>{name}</option>)}
        </select>
      </label>
      {!ns && names.length > 0 && <small class="muted" data-test="namespace-hint">{t('namespace.others', { count: names.length })}</small>}
    </div>
  );
}
