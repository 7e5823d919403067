/**
 * Topic Explorer (route /topic-explorer): every topic seen on the broker's MQTT-over-WebSocket
 * listener as a live tree, and the selected topic's messages and broker-side facts. The connection
 * and the tree live in the store module, so they keep running while other screens are open.
 */
import { useSnapshot } from 'valtio';
import { t } from '../../../lib/i18n.ts';
import '../websocket/messages.ts';
import { ConnectionBar } from './ConnectionBar.tsx';
import './messages.ts';
import { explorer } from './store.ts';
import { addExplorerStyles } from './styles.ts';
import { TopicPanel } from './TopicPanel.tsx';
import { TopicTree } from './TopicTree.tsx';
import type { Sort } from './tree.ts';

const SORTS: Sort[] = ['name', 'rate', 'last'];

export default function TopicExplorerPage() {
  addExplorerStyles();
  const snap = useSnapshot(explorer, { sync: true });
  return (
    <section class="tx-page" data-test="explorer-page">
      <header class="page-head">
        <h2>{t('diagnose.topicExplorer')}</h2>
      </header>
      <ConnectionBar />
      <div class="tx-columns">
        <article class="ws-card">
          <div class="tx-toolbar">
            <input type="search" value={snap.search} placeholder={t('explorer.search')} aria-label={t('explorer.search')} data-test="explorer-search"
              onInput={(e) => (explorer.search = (e.target as HTMLInputElement).value)} />
            <select value={snap.sort} aria-label={t('explorer.sort')} title={t('explorer.sort')} data-test="explorer-sort"
              onChange={(e) => (explorer.sort = (e.target as HTMLSelectElement).value as Sort)}>
              {SORTS.map((s) => <option key={s} value={s}>{t(`explorer.sort.${s}`)}</option>)}
            </select>
            {/* The state again beside the tree, so it stays in view while the form is scrolled away. */}
            <span class={`tx-state tx-state-${snap.status}`} role="status" data-test="explorer-state" data-state={snap.status}>
              {t(`${snap.status.startsWith('conn') ? 'status' : 'websocket.state'}.${snap.status}`)}
            </span>
          </div>
          <TopicTree />
        </article>
        <TopicPanel />
      </div>
    </section>
  );
}
