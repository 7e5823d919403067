/**
 * Listeners (emqx-api-part1 §22.1): the list grouped by type with start/stop/restart and delete,
 * the create form, and the per-listener edit page (a ConfigPage section on `/listeners/{id}` that
 * confirms before disconnecting clients). Fields are hand-declared: hotconf has no listener schema.
 */
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { isDuration } from '../../../lib/units.ts';
import { required } from '../../../lib/validators.ts';
import type { ConfigPageDecl } from '../../../ui/ConfigPage.tsx';
import type { FieldDecl, ResourceDecl } from '../../../ui/resource.ts';
import { tlsFields } from '../../../ui/tls.ts';
import { help, limiterFields, rateRule, withoutEmptyLimits } from './pages.ts';
import './messages.ts';

export interface Listener {
  id: string;
  type: string;
  name: string;
  enable: boolean;
  bind: string;
  status?: { running: boolean | 'inconsistent'; max_connections: number | 'infinity'; current_connections: number };
}

export const TYPES = ['tcp', 'ssl', 'ws', 'wss', 'quic'];
const bind = (v: unknown) => (!v || /^(\d{1,5}|[\w.:[\]-]+:\d{1,5})$/.test(String(v)) ? undefined : t('listener.bindFormat'));

/** The editable fields of a listener of `type` (TLS for ssl/wss, WebSocket path for ws/wss, MTU for quic). */
export function listenerFields(type: string): FieldDecl[] {
  const fields: FieldDecl[] = [
    { name: 'enable', label: 'listener.enable', kind: 'switch' },
    { name: 'bind', label: 'listener.bind', required: true, rules: [bind], placeholder: '0.0.0.0:1883' },
    { name: 'acceptors', label: 'listener.acceptors', kind: 'number' },
    { name: 'max_connections', label: 'listener.maxConnections', kind: 'number', keywords: ['infinity'] },
    // 5.5 to 5.8 (a fresh 5.8 listener answers `infinity`).
    { name: 'max_conn_rate', label: 'config.maxConnRate', rules: [rateRule], placeholder: '1000/s', requires: 'globalLimiter' },
    { name: 'mountpoint', label: 'listener.mountpoint' },
    { name: 'enable_authn', label: 'listener.enableAuthn', kind: 'select',
      options: ['true', 'false', 'quick_deny_anonymous'].map((value) => ({ value, label: value })) },
    { name: 'access_rules', label: 'listener.accessRules', kind: 'list' },
  ];
  if (type === 'quic') return [...fields, ...limiterFields(''), { name: 'mtu', label: 'listener.mtu', kind: 'number', rules: [(v) => (v === '' || v === undefined || (Number(v) >= 1248 && Number(v) <= 1500) ? undefined : t('validation.numberRange', { min: 1248, max: 1500 }))] }];
  fields.push(
    { name: 'proxy_protocol', label: 'listener.proxyProtocol', kind: 'switch' },
    { name: 'proxy_protocol_timeout', label: 'listener.proxyProtocolTimeout', kind: 'duration', rules: [(v) => (!v || isDuration(String(v)) ? undefined : t('schemaForm.badDuration'))] },
    // 5.10 and later: the listener's own limiter (emqx_limiter.erl create_listener_limiters/2).
    ...limiterFields(''),
    { name: 'tcp_options.backlog', label: 'listener.backlog', kind: 'number', section: 'listener.tcpOptions' },
    { name: 'tcp_options.send_timeout', label: 'listener.sendTimeout', kind: 'duration', section: 'listener.tcpOptions' },
    { name: 'tcp_options.buffer', label: 'listener.buffer', kind: 'bytesize', section: 'listener.tcpOptions' },
  );
  if (type === 'ws' || type === 'wss') fields.push({ name: 'websocket.mqtt_path', label: 'listener.mqttPath', placeholder: '/mqtt' });
  if (type === 'ssl' || type === 'wss') fields.push(...tlsFields('ssl_options', { server: true }));
  return fields;
}

/** The id in a path segment as the broker's docs write it (`tcp:default`); a name has no other specials. */
const seg = (id: string) => encodeURIComponent(id).replace('%3A', ':');
const port = (bindText: unknown) => String(bindText ?? '').split(':').pop();
// What the GET answer carries that a PUT body must not: the status fields, and `name`, which the
// update's schema lacks (emqx_mgmt_api_listeners.erl listener_schema/1 at 6.2.2 and v5.5.1: type,
// running, id, current_connections and the listener's own fields), so the broker answers 400
// unknown_fields to it.
const NOT_IN_BODY = ['running', 'current_connections', 'number', 'status', 'node_status', 'name'];

export function listenerPage(id: string): ConfigPageDecl {
  const type = id.split(':')[0];
  return {
    // The id itself as the heading (t() returns text that is not a key unchanged).
    title: id,
    missing: { text: t('listener.notFound', { id }), back: '/listener', backTitle: 'listener.title' },
    sections: [{
      name: 'listener', path: `/listeners/${seg(id)}`, fields: listenerFields(type), success: 'listener.saved', help: help('listeners'),
      // Updating restarts the listener; a new port closes every connection (emqx_listeners).
      confirm: (body, loaded) => (type !== 'quic' && port(body.bind) !== port(loaded.bind) ? 'listener.confirmPort' : 'listener.confirmUpdate'),
      toBody: (body) => withoutEmptyLimits(Object.fromEntries(Object.entries({ ...body, id, type }).filter(([key]) => !NOT_IN_BODY.includes(key))), true),
    }],
  };
}

const action = (key: 'start' | 'stop' | 'restart', success: string, confirm?: string) => ({
  key, label: `listener.${key}`, success, confirm, danger: key === 'stop',
  when: (row: Listener) => (key === 'start' ? !row.enable : row.enable),
  run: (row: Listener) => api.post(`/listeners/${seg(row.id)}/${key}`),
});

export const listeners: ResourceDecl<Listener> = {
  name: 'listeners',
  title: 'listener.title',
  rowKey: (row) => row.id,
  list: async (query, signal) => {
    const rows = await api.get<Listener[]>('/listeners', { params: { type: query.type }, signal });
    // Grouped by type in the broker's order (tcp, ssl, ws, wss, quic), then by name.
    rows.sort((a, b) => TYPES.indexOf(a.type) - TYPES.indexOf(b.type) || a.name.localeCompare(b.name));
    return { rows, meta: { page: 1, limit: rows.length || 1, count: rows.length } };
  },
  filters: [{ name: 'type', label: 'listener.type', kind: 'select', options: [{ value: '', label: 'common.all' }, ...TYPES.map((v) => ({ value: v, label: v }))] }],
  columns: [
    { key: 'id', title: 'listener.id', link: (row) => `/listener/detail/${encodeURIComponent(row.id)}` },
    { key: 'type', title: 'listener.type' },
    { key: 'bind', title: 'listener.bind' },
    { key: 'status', title: 'listener.status', text: (row) => t(row.status?.running === true ? 'listener.running' : row.status?.running === 'inconsistent' ? 'listener.inconsistent' : 'listener.stopped') },
    { key: 'connections', title: 'listener.connections', text: (row) => `${row.status?.current_connections ?? 0} / ${row.status?.max_connections ?? '-'}` },
    { key: 'enable', title: 'listener.enable', text: (row) => t(row.enable ? 'common.yes' : 'common.no') },
  ],
  create: {
    title: 'listener.create',
    fields: [
      { name: 'type', label: 'listener.type', kind: 'select', options: TYPES.map((v) => ({ value: v, label: v })) },
      { name: 'name', label: 'listener.name', required: true, requiredMessage: 'validation.nameRequired',
        rules: [(v) => (!v || /^[A-Za-z0-9_]+$/.test(String(v)) ? undefined : t('listener.namePattern'))] },
      { name: 'bind', label: 'listener.bind', required: true, rules: [bind], placeholder: '0.0.0.0:1884' },
    ],
    submit: (values) => api.post('/listeners', values),
    success: 'listener.created',
  },
  createLabel: 'listener.create',
  actions: [
    action('start', 'listener.started'),
    action('stop', 'listener.stoppedOk', 'listener.confirmStop'),
    action('restart', 'listener.restarted', 'listener.confirmUpdate'),
    { key: 'delete', label: 'common.delete', danger: true, confirm: 'listener.confirmDelete', success: 'listener.deleted', run: (row) => api.del(`/listeners/${seg(row.id)}`) },
  ],
};
