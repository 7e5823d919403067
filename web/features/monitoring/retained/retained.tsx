/**
 * Monitoring > Retained messages as one declaration (emqx-api-part1 §11): the list
 * (`GET /mqtt/retainer/messages`, envelope C, `topic` filter with wildcards), the message in a
 * drawer, delete one (`DELETE /mqtt/retainer/message/{topic}`) and clear all
 * (`DELETE /mqtt/retainer/messages`).
 */
import { hasScreen } from '../../../app/routes.ts';
import { api } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { pageList, type ResourceDecl, type ToolAction } from '../../../ui/resource.ts';
import { RetainedMessage } from './RetainedMessage.tsx';
import './messages.ts';

export interface Retained {
  msgid: string;
  topic: string;
  qos: number;
  publish_at: string;
  from_clientid: string;
  from_username: string;
  /** Only in the single-message answer, base64; absent over 1 MB. */
  payload?: string;
}

/** The retainer settings screen is built elsewhere; link to it once it exists. */
const SETTINGS = '/mqtt/retainer';
const settings: ToolAction[] = hasScreen(SETTINGS) ? [{ key: 'settings', label: 'retained.settings', href: SETTINGS, run: async () => undefined }] : [];

export const retained: ResourceDecl<Retained> = {
  name: 'retained',
  title: 'monitoring.retained',
  rowKey: (m) => m.topic,
  list: pageList<Retained>('/mqtt/retainer/messages'),
  empty: 'retained.empty',
  filters: [{ name: 'topic', label: 'retained.topicFilter' }],
  columns: [
    { key: 'topic', title: 'retained.topic' },
    { key: 'qos', title: 'retained.qos' },
    { key: 'from_clientid', title: 'retained.fromClientid' },
    { key: 'from_username', title: 'retained.fromUsername', optional: true },
    { key: 'publish_at', title: 'retained.publishAt', text: (m) => formatDateTime(m.publish_at, '—') },
  ],
  actions: [
    { key: 'view', label: 'common.view', view: { title: 'retained.viewTitle', render: (m) => <RetainedMessage topic={m.topic} /> } },
    {
      key: 'delete', label: 'common.delete', danger: true, confirm: 'retained.confirmDelete', success: 'retained.deleted',
      run: (m) => api.del(`/mqtt/retainer/message/${encodeURIComponent(m.topic)}`),
    },
  ],
  tools: [
    ...settings,
    {
      key: 'clear', label: 'common.clearAll', danger: true, confirm: 'retained.confirmClear', success: 'retained.cleared',
      run: () => api.del('/mqtt/retainer/messages'),
    },
  ],
};
