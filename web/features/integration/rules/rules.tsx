/**
 * Integration > Rules as one declaration (emqx-api-part2 §5.1): `GET /rules` paged by the server
 * with its own filters (`like_id`, `enable`, `like_from`), the enable switch (`PUT` with
 * `{enable}`, merged by the broker) and delete. The rule objects carry no metrics; the detail
 * page reads them from `/rules/{id}/metrics`.
 */
import { api } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { pageList, type ResourceDecl } from '../../../ui/resource.ts';
import { EnableSwitch } from './EnableSwitch.tsx';
import './messages.ts';

/** An output of a rule (§5.3): an action id `type:name`, or a built-in function with its args. */
export type RuleAction = string | { function: string; args?: Record<string, unknown> };

export interface Rule {
  id: string;
  name?: string;
  sql: string;
  actions: RuleAction[];
  enable: boolean;
  description?: string;
  from?: string[];
  created_at?: string;
  last_modified_at?: string;
}

export const rulePath = (id: string, rest = '') => `/rules/${encodeURIComponent(id)}${rest}`;
export const ruleLink = (id: string) => `/rule/rules/${encodeURIComponent(id)}`;

/** The SQL on one line, cut to `max` characters, for the list. */
export const shortSql = (sql: string, max = 64) => {
  const line = sql.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

const outputName = (a: RuleAction) => (typeof a === 'string' ? a : a.function);

export const rules: ResourceDecl<Rule> = {
  name: 'rules',
  title: 'integration.rules',
  rowKey: (r) => r.id,
  list: pageList<Rule>('/rules'),
  empty: 'rules.empty',
  namespaced: true,
  tools: [{ key: 'create', label: 'common.create', href: '/rule/rules/create', run: async () => undefined }],
  filters: [
    { name: 'like_id', label: 'rules.id' },
    { name: 'like_from', label: 'rules.filterFrom' },
    {
      name: 'enable', label: 'rules.enable', kind: 'select',
      options: [{ value: '', label: 'common.all' }, { value: 'true', label: 'rules.enabled' }, { value: 'false', label: 'rules.disabled' }],
    },
  ],
  columns: [
    { key: 'id', title: 'rules.id', link: (r) => ruleLink(r.id) },
    { key: 'sql', title: 'rules.sql', text: (r) => <code title={r.sql}>{shortSql(r.sql)}</code> },
    { key: 'actions', title: 'rules.outputs', optional: true, text: (r) => r.actions.map(outputName).join(', ') || '—' },
    { key: 'description', title: 'rules.description', optional: true, hidden: true },
    { key: 'enable', title: 'rules.enable', text: (r) => <EnableSwitch rule={r} /> },
    { key: 'created_at', title: 'rules.createdAt', text: (r) => formatDateTime(r.created_at, '—') },
  ],
  actions: [
    { key: 'delete', label: 'common.delete', danger: true, confirm: 'rules.confirmDelete', success: 'rules.deleted', run: (r) => api.del(rulePath(r.id)) },
  ],
};

/** An entry of `GET /rule_events` (§5.7); `test_columns` maps a column to `[example, explanation]`. */
export interface RuleEvent {
  event: string;
  title: { en: string; zh: string };
  description: { en: string; zh: string };
  columns: string[];
  test_columns: Record<string, [unknown, string]>;
  sql_example: string;
}
