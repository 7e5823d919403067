/**
 * The in-browser MQTT test client (route /websocket): connection tabs, and for the chosen one its
 * settings, subscriptions, publishing, the received and published messages and topic monitors.
 * All state lives in the store module, so leaving the route keeps connections and lists.
 */
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { t } from '../../../lib/i18n.ts';
import { ConnectionForm } from './ConnectionForm.tsx';
import { ConnectionTabs } from './ConnectionTabs.tsx';
import { MessageList } from './MessageList.tsx';
import { PublishPanel } from './PublishPanel.tsx';
import { loadListenerAddress, wsClient } from './store.ts';
import { SubscribePanel } from './SubscribePanel.tsx';
import { TopicMonitor } from './TopicMonitor.tsx';
import './messages.ts';

export default function WebSocketPage() {
  const id = useSnapshot(wsClient).active;
  useEffect(() => void loadListenerAddress(), []);
  return (
    <section class="ws-page" data-test="websocket-page">
      <header class="page-head">
        <h2>{t('diagnose.websocket')}</h2>
      </header>
      <ConnectionTabs />
      {/* Keyed by connection, so scroll positions and drawers do not leak between tabs. */}
      <div key={id} role="tabpanel">
        <ConnectionForm id={id} />
        <div class="ws-columns">
          <SubscribePanel id={id} />
          <PublishPanel id={id} />
        </div>
        <div class="ws-columns">
          <MessageList id={id} list="received" />
          <MessageList id={id} list="published" />
        </div>
        <TopicMonitor id={id} />
      </div>
    </section>
  );
}
