/**
 * The gateway kinds as a registry (STYLE.md habit 3), keyed by EMQX's gateway name: display name,
 * the listener types the broker accepts (api notes §19.1 — the specification's list is garbled),
 * the default listener, the basic config fields and their schema defaults, and which
 * authentication mechanisms and backends the specification allows.
 */
import { t } from '../../../lib/i18n.ts';
import type { Rule } from '../../../lib/validators.ts';
import type { FieldDecl } from '../../../ui/resource.ts';
import './messages.ts';

export type GatewayName = 'stomp' | 'mqttsn' | 'coap' | 'lwm2m' | 'exproto';

export interface GatewayKind {
  label: string;
  listenerTypes: string[];
  listener: { type: string; name: string; bind: string };
  fields: FieldDecl[];
  defaults: Record<string, unknown>;
  mechanisms: string[];
  backends: string[];
  /** Basic values kept as JSON text in the form (e.g. MQTT-SN predefined topics). */
  json?: string[];
}

// ExProto's gRPC server (the ConnectionAdapter service) runs TLS once it has `ssl_options`
// (emqx_exproto_schema.erl at v5.5.1, exproto_grpc_server): then cert and key are both needed.
const SERVER_TLS = 'server.ssl_options';
const grpcPair = (other: string): Rule => (value, values) => {
  const filled = (v: unknown) => typeof v === 'string' && v.trim() !== '';
  return !filled(value) && filled(values[`${SERVER_TLS}.${other}`]) ? t('gateway.grpcMissingCertOrKey') : undefined;
};

const jsonArray: Rule = (value) => {
  try {
    return Array.isArray(JSON.parse(String(value || '[]'))) ? undefined : t('gateway.json');
  } catch {
    return t('gateway.json');
  }
};
const options = (values: string[]) => values.map((value) => ({ value, label: value }));
const QOS = options(['coap', 'qos0', 'qos1', 'qos2']);
const common: FieldDecl[] = [
  { name: 'idle_timeout', label: 'gateway.idleTimeout', kind: 'duration', required: true },
  { name: 'enable_stats', label: 'gateway.enableStats', kind: 'switch' },
  { name: 'mountpoint', label: 'gateway.mountpoint' },
];
const base = { enable: true, idle_timeout: '30s', enable_stats: true, mountpoint: '' };
const DB = ['built_in_database', 'mysql', 'mongodb', 'postgresql'];
const TRANSLATORS = ['command', 'response', 'notify', 'register', 'update'];

export const KINDS: Record<GatewayName, GatewayKind> = {
  stomp: {
    label: 'STOMP', listenerTypes: ['tcp', 'ssl'], listener: { type: 'tcp', name: 'default', bind: '0.0.0.0:61613' },
    fields: [
      { name: 'frame.max_headers', label: 'gateway.maxHeaders', kind: 'number', required: true },
      { name: 'frame.max_headers_length', label: 'gateway.maxHeadersLength', kind: 'number', required: true },
      { name: 'frame.max_body_length', label: 'gateway.maxBodyLength', kind: 'number', required: true },
      ...common,
    ],
    defaults: { ...base, frame: { max_headers: 10, max_headers_length: 1024, max_body_length: 65536 } },
    mechanisms: ['password_based', 'scram'], backends: DB,
  },
  mqttsn: {
    label: 'MQTT-SN', listenerTypes: ['udp', 'dtls'], listener: { type: 'udp', name: 'default', bind: '0.0.0.0:1884' },
    fields: [
      { name: 'gateway_id', label: 'gateway.gatewayId', kind: 'number', required: true },
      { name: 'broadcast', label: 'gateway.broadcast', kind: 'switch' },
      { name: 'enable_qos3', label: 'gateway.qos3', kind: 'switch' },
      { name: 'predefined', label: 'gateway.predefined', kind: 'code', help: 'gateway.predefinedHelp', rules: [jsonArray] },
      ...common,
    ],
    defaults: { ...base, gateway_id: 1, broadcast: false, enable_qos3: true, subs_resume: false, predefined: [] },
    mechanisms: ['password_based', 'scram', 'jwt'], backends: [...DB, 'redis'], json: ['predefined'],
  },
  coap: {
    label: 'CoAP', listenerTypes: ['udp', 'dtls'], listener: { type: 'udp', name: 'default', bind: '0.0.0.0:5683' },
    fields: [
      { name: 'heartbeat', label: 'gateway.heartbeat', kind: 'duration', required: true },
      { name: 'connection_required', label: 'gateway.connectionRequired', kind: 'switch' },
      { name: 'notify_type', label: 'gateway.notifyType', kind: 'select', options: options(['qos', 'con', 'non']) },
      { name: 'subscribe_qos', label: 'gateway.subscribeQos', kind: 'select', options: QOS },
      { name: 'publish_qos', label: 'gateway.publishQos', kind: 'select', options: QOS },
      ...common,
    ],
    defaults: { ...base, heartbeat: '30s', connection_required: false, notify_type: 'qos', subscribe_qos: 'coap', publish_qos: 'coap' },
    mechanisms: ['password_based', 'scram'], backends: DB,
  },
  lwm2m: {
    label: 'LwM2M', listenerTypes: ['udp', 'dtls'], listener: { type: 'udp', name: 'default', bind: '0.0.0.0:5783' },
    fields: [
      { name: 'xml_dir', label: 'gateway.xmlDir', required: true },
      { name: 'lifetime_min', label: 'gateway.lifetimeMin', kind: 'duration', required: true },
      { name: 'lifetime_max', label: 'gateway.lifetimeMax', kind: 'duration', required: true },
      { name: 'qmode_time_window', label: 'gateway.qmodeWindow', kind: 'duration', required: true },
      { name: 'auto_observe', label: 'gateway.autoObserve', kind: 'switch' },
      { name: 'update_msg_publish_condition', label: 'gateway.updateStrategy', kind: 'select', options: options(['contains_object_list', 'always']) },
      ...TRANSLATORS.map((name): FieldDecl => ({ name: `translators.${name}.topic`, label: `gateway.translator.${name}`, required: true })),
      ...common,
    ],
    defaults: {
      ...base, mountpoint: 'lwm2m/${endpoint_name}/', xml_dir: 'etc/lwm2m_xml', lifetime_min: '15s', lifetime_max: '86400s', qmode_time_window: '22s',
      auto_observe: false, update_msg_publish_condition: 'contains_object_list',
      translators: { command: { topic: 'dn/#', qos: 0 }, response: { topic: 'up/resp', qos: 0 }, notify: { topic: 'up/notify', qos: 0 }, register: { topic: 'up/resp', qos: 0 }, update: { topic: 'up/update', qos: 0 } },
    },
    mechanisms: ['password_based', 'scram', 'jwt'], backends: [...DB, 'redis'],
  },
  exproto: {
    label: 'ExProto', listenerTypes: ['tcp', 'ssl', 'udp', 'dtls'], listener: { type: 'tcp', name: 'default', bind: '0.0.0.0:7993' },
    fields: [
      { name: 'server.bind', label: 'gateway.serverBind', required: true },
      { name: `${SERVER_TLS}.certfile`, label: 'tls.certfile', kind: 'cert', help: 'gateway.grpcTlsHelp', rules: [grpcPair('keyfile')] },
      { name: `${SERVER_TLS}.keyfile`, label: 'tls.keyfile', kind: 'cert', rules: [grpcPair('certfile')] },
      { name: 'handler.address', label: 'gateway.handlerAddress', required: true },
      { name: 'handler.service_name', label: 'gateway.serviceName', kind: 'select', options: options(['ConnectionUnaryHandler', 'ConnectionHandler']) },
      ...common,
    ],
    defaults: { ...base, server: { bind: '0.0.0.0:9100' }, handler: { address: 'http://127.0.0.1:9001', service_name: 'ConnectionUnaryHandler' } },
    mechanisms: ['password_based', 'scram'], backends: DB,
  },
};

export const GATEWAY_NAMES = Object.keys(KINDS) as GatewayName[];
export const kindOf = (name: string): GatewayKind | undefined => KINDS[name as GatewayName];
