/**
 * The declaration both ordered chains share (authenticators and authorization sources): rows in
 * chain order with their status, an enable switch, move up/down/top/bottom expressed as EMQX
 * positions (`front`, `rear`, `before:<id>`, `after:<id>`) and delete with confirmation.
 */
import { canWrite } from '../../lib/broker.ts';
import { api } from '../../lib/api.ts';
import { t } from '../../lib/i18n.ts';
import { perform } from '../../lib/resources.ts';
import type { Column, ResourceDecl, RowAction } from '../../ui/resource.ts';
import { StatusTag } from '../../ui/StatusTag.tsx';
import './messages.ts';

export type ChainRow = Record<string, unknown> & { enable?: boolean; status__?: string };

export interface ChainDecl {
  name: string;
  title: string;
  key: (row: ChainRow) => string;
  /** The chain in order (the list endpoint's rows). */
  load: (signal: AbortSignal) => Promise<ChainRow[]>;
  /** Path of one member (`/authentication/{id}`), for status, PUT and DELETE. */
  path: (key: string) => string;
  statusPath: (key: string) => string;
  move: (key: string, position: string) => Promise<unknown>;
  columns: Column<ChainRow>[];
  messages: { empty: string; confirmDelete: string; confirmDisable: string; deleted: string; enabled: string; disabled: string };
  /** Asked before a member is enabled, with the other members; false keeps it off. */
  beforeEnable?: (row: ChainRow, others: ChainRow[]) => Promise<boolean>;
}

/** Builds the list declaration of a chain; order matters, so it is never paged. */
export function declareChain(c: ChainDecl): ResourceDecl<ChainRow> {
  let chain: ChainRow[] = [];
  const indexOf = (row: ChainRow) => chain.findIndex((r) => c.key(r) === c.key(row));
  const move = (label: string, key: string, position: (i: number) => string, when: (i: number) => boolean): RowAction<ChainRow> => ({
    key, label, when: (row) => when(indexOf(row)), success: 'access.moved', run: (row) => c.move(c.key(row), position(indexOf(row))),
  });
  const toggle = async (row: ChainRow) => {
    const { status__: _status, id: _id, ...config } = row;
    const enable = !row.enable;
    if (enable && c.beforeEnable && !(await c.beforeEnable(row, chain.filter((r) => c.key(r) !== c.key(row))))) return;
    void perform({
      resource: c.name, confirm: enable ? undefined : c.messages.confirmDisable, danger: true, params: { key: c.key(row) },
      success: enable ? c.messages.enabled : c.messages.disabled,
      run: () => api.put(c.path(c.key(row)), { ...config, enable }),
    });
  };
  return {
    name: c.name,
    title: c.title,
    rowKey: c.key,
    empty: c.messages.empty,
    list: async (_query, signal) => {
      const rows = await c.load(signal);
      // A list left meanwhile asks nothing more.
      signal.throwIfAborted();
      // Status is per member (api part2 §2.6/§3.5); a failed lookup shows as unknown, not as an error.
      const statuses = await Promise.all(rows.map((row) =>
        api.get<{ status: string }>(c.statusPath(c.key(row)), { signal }).then((s) => s.status, () => '')));
      chain = rows.map((row, i) => ({ ...row, status__: statuses[i] }));
      return { rows: chain, meta: { page: 1, limit: Math.max(chain.length, 1), count: chain.length } };
    },
    columns: [
      ...c.columns,
      { key: 'status__', title: 'access.status', text: (row) => <StatusTag status={row.enable === false ? 'disabled' : row.status__} test={`${c.name}-status`} /> },
      {
        key: 'enable', title: 'access.enable',
        text: (row) => (
          <input type="checkbox" role="switch" checked={row.enable !== false} disabled={!canWrite()} aria-label={`${t('access.enable')} ${c.key(row)}`}
            data-test={`${c.name}-enable`} onChange={(e) => ((e.target as HTMLInputElement).checked = row.enable !== false, void toggle(row))} />
        ),
      },
    ],
    actions: [
      move('access.moveUp', 'up', (i) => `before:${c.key(chain[i - 1])}`, (i) => i > 0),
      move('access.moveDown', 'down', (i) => `after:${c.key(chain[i + 1])}`, (i) => i < chain.length - 1),
      move('access.moveTop', 'top', () => 'front', (i) => i > 0),
      move('access.moveBottom', 'bottom', () => 'rear', (i) => i < chain.length - 1),
      { key: 'delete', label: 'common.delete', danger: true, confirm: c.messages.confirmDelete, success: c.messages.deleted, run: (row) => api.del(c.path(c.key(row))) },
    ],
  };
}
