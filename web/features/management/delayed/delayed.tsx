/**
 * Management > Delayed publish as one declaration (emqx-api-part1 §16): the held messages
 * (`GET /mqtt/delayed/messages`, envelope A) with a live countdown, the payload in a drawer, and
 * delete (`DELETE /mqtt/delayed/messages/{node}/{msgid}`); the settings are a linked screen.
 */
import { api } from '../../../lib/api.ts';
import { formatDateTime, formatDuration } from '../../../lib/format.ts';
import { pageList, type ResourceDecl } from '../../../ui/resource.ts';
import { DelayedMessage } from './DelayedMessage.tsx';
import { Remaining } from './Remaining.tsx';
import './messages.ts';

export interface DelayedItem {
  msgid: string;
  node: string;
  publish_at: string;
  delayed_interval: number;
  delayed_remaining: number;
  expected_at: string;
  topic: string;
  qos: number;
  from_clientid: string | null;
  from_username: string | null;
}

const NAME = 'delayed-messages';
const nowrap = (text: string) => <span class="nowrap">{text}</span>;
const at = (m: DelayedItem) => `/mqtt/delayed/messages/${encodeURIComponent(m.node)}/${encodeURIComponent(m.msgid)}`;

export const delayedMessages: ResourceDecl<DelayedItem> = {
  name: NAME,
  title: 'management.delayedPublish',
  rowKey: (m) => m.msgid,
  list: pageList<DelayedItem>('/mqtt/delayed/messages'),
  refreshMs: 10_000,
  empty: 'delayed.empty',
  columns: [
    // The API gives the destination; the topic the client published to is rebuilt from it.
    { key: 'original', title: 'delayed.originalTopic', text: (m) => `$delayed/${m.delayed_interval}/${m.topic}` },
    { key: 'topic', title: 'delayed.destTopic' },
    { key: 'qos', title: 'delayed.qos', optional: true, hidden: true },
    { key: 'delayed_interval', title: 'delayed.interval', text: (m) => nowrap(formatDuration(m.delayed_interval * 1000)) },
    { key: 'delayed_remaining', title: 'delayed.remaining', text: (m) => <Remaining row={m} seconds={m.delayed_remaining} resource={NAME} /> },
    { key: 'publish_at', title: 'delayed.publishAt', text: (m) => nowrap(formatDateTime(m.publish_at, '—')) },
    { key: 'expected_at', title: 'delayed.expectedAt', optional: true, hidden: true, text: (m) => nowrap(formatDateTime(m.expected_at, '—')) },
    { key: 'from_clientid', title: 'delayed.fromClientid' },
    { key: 'from_username', title: 'delayed.fromUsername', optional: true, hidden: true },
    { key: 'node', title: 'delayed.node', optional: true, hidden: true },
  ],
  actions: [
    { key: 'view', label: 'delayed.viewPayload', view: { title: 'delayed.viewPayload', render: (m) => <DelayedMessage node={m.node} msgid={m.msgid} /> } },
    { key: 'delete', label: 'common.delete', danger: true, confirm: 'delayed.confirmDelete', success: 'delayed.deleted', run: (m) => api.del(at(m)) },
  ],
  tools: [{ key: 'settings', label: 'delayed.settings', href: '/delayed-pub-configuration', run: async () => undefined }],
};
