/**
 * The topic tree, virtualised: only the rows in the visible window are rendered, so ten thousand
 * topics scroll smoothly. Each row shows its level, the messages and rate of its subtree, the time
 * since its last message, a retained marker and a one-line preview of the last payload, all as text.
 * Arrow keys move the selection and open or close levels.
 */
import { memo, useState } from 'react';
import { useSnapshot } from 'valtio';
import { formatDuration, formatNumber } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { Empty } from '../../../ui/States.tsx';
import { rowText } from '../websocket/payload.ts';
import { explorer, model, select, toggle } from './store.ts';
import { visibleRows, type Row, type TopicMessage, type TopicNode } from './tree.ts';

export const ROW_PX = 30;
export const VIEW_PX = 540;
const OVERSCAN = 6;
const PREVIEW_CHARS = 160;

const previews = new WeakMap<TopicMessage, string>();
/** One line of the payload as text ('' when it is not UTF-8 or over 1 MB). */
export function preview(message: TopicMessage | undefined): string {
  if (!message) return '';
  let text = previews.get(message);
  if (text === undefined) {
    const head = message.payload && message.payload.length > PREVIEW_CHARS * 4 ? message.payload.subarray(0, PREVIEW_CHARS * 4) : message.payload;
    text = (rowText(head, message.size, 'plaintext') ?? '').replace(/\s+/g, ' ').slice(0, PREVIEW_CHARS);
    previews.set(message, text);
  }
  return text;
}

const rate = (n: number) => formatNumber(n >= 10 ? Math.round(n) : Math.round(n * 10) / 10);

export const TreeRow = memo(function TreeRow(props: { node: TopicNode; open: boolean; top: number; selected: boolean; now: number; rev: number }) {
  const { node, open } = props;
  const leaf = node.children.size === 0;
  return (
    <li role="treeitem" aria-level={node.depth} aria-expanded={leaf ? undefined : open} aria-selected={props.selected} tabIndex={props.selected ? 0 : -1}
      class={`tx-row${props.selected ? ' tx-selected' : ''}`} style={{ top: `${props.top}px`, height: `${ROW_PX}px` }}
      data-test="explorer-node" data-path={node.path} onClick={() => select(node.path)}>
      <span class="tx-indent" style={{ width: `${(node.depth - 1) * 1.1}rem` }} />
      <button type="button" class="tx-toggle" tabIndex={-1} aria-hidden="true" disabled={leaf} data-test="explorer-toggle"
        onClick={(e) => (e.stopPropagation(), toggle(node.path))}>{leaf ? '' : open ? '▾' : '▸'}</button>
      <span class="tx-label">
        <code class="tx-name" title={node.path} data-test="explorer-node-name">{node.name}</code>
        {node.retained && <span class="tag tag-warn tx-retained" data-test="explorer-retained">{t('explorer.retained')}</span>}
      </span>
      <span class="tx-num" data-test="explorer-node-count">{t('explorer.messagesCount', { count: formatNumber(node.count) })}</span>
      <span class="tx-num" data-test="explorer-node-rate" data-rate={node.rate.toFixed(2)}>{t('explorer.rate', { rate: rate(node.rate) })}</span>
      <span class="tx-num tx-ago muted">{node.last ? t('explorer.ago', { time: formatDuration(Math.max(0, props.now - node.last.time), 1) }) : ''}</span>
      <span class="tx-preview muted" data-test="explorer-node-preview">{preview(node.last)}</span>
    </li>
  );
});

export function TopicTree() {
  const snap = useSnapshot(explorer);
  const { tree, expanded } = model();
  const [scrollTop, setScrollTop] = useState(0);
  const rows: Row[] = visibleRows(tree, expanded, snap.sort, snap.search);
  void snap.rev;
  const now = Date.now();
  const first = Math.max(0, Math.floor(scrollTop / ROW_PX) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + VIEW_PX) / ROW_PX) + OVERSCAN);
  const at = rows.findIndex((r) => r.node.path === snap.selected);

  const onKey = (e: KeyboardEvent) => {
    const row = rows[at];
    const move = (index: number) => {
      const next = rows[Math.max(0, Math.min(rows.length - 1, index))];
      if (!next) return;
      select(next.node.path);
      const list = e.currentTarget as HTMLElement;
      // Keep the selected row in view, then focus it once rendered.
      const top = rows.indexOf(next) * ROW_PX;
      if (top < list.scrollTop) list.scrollTop = top;
      else if (top + ROW_PX > list.scrollTop + VIEW_PX) list.scrollTop = top + ROW_PX - VIEW_PX;
      requestAnimationFrame(() => list.querySelector<HTMLElement>('.tx-selected')?.focus());
    };
    if (e.key === 'ArrowDown') move(at + 1);
    else if (e.key === 'ArrowUp') move(at < 0 ? 0 : at - 1);
    else if (e.key === 'ArrowRight' && row && row.node.children.size) toggle(row.node.path, true);
    else if (e.key === 'ArrowLeft' && row) {
      if (row.open) toggle(row.node.path, false);
      else move(rows.findIndex((r) => r.node.path === row.node.path.slice(0, row.node.path.lastIndexOf('/'))));
    } else if ((e.key === 'Enter' || e.key === ' ') && row) toggle(row.node.path);
    else return;
    e.preventDefault();
  };

  if (rows.length === 0) return <Empty text={t(tree.root.count && snap.search ? 'explorer.noMatch' : 'explorer.noTopics')} />;
  const shown = rows.slice(first, last);
  return (
    <div class="tx-list" style={{ height: `${VIEW_PX}px` }} tabIndex={at < 0 ? 0 : -1} onKeyDown={onKey} data-test="explorer-tree"
      onScroll={(e) => setScrollTop((e.target as HTMLElement).scrollTop)}>
      <ul role="tree" aria-label={t('explorer.tree')} style={{ height: `${rows.length * ROW_PX}px` }}>
        {shown.map((r, k) => (
          <TreeRow key={r.node.path} node={r.node} open={r.open} top={(first + k) * ROW_PX} selected={r.node.path === snap.selected} now={now} rev={snap.rev} />
        ))}
      </ul>
    </div>
  );
}
