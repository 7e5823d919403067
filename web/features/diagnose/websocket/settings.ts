/**
 * Connection settings of the test client: the address of the broker's first enabled WebSocket
 * listener (`GET /listeners`), on the page's host; the checks run before connecting, and the
 * mqtt.js options they become. The dashboard port itself serves no MQTT: EMQX's dashboard listener
 * dispatches only `/`, `/static/…` and `/api/v5` (emqx_dashboard.erl, dispatch/0, at v5.5.1), so
 * the page's own host and port are only what is shown before the listeners are known. It does not
 * connect.
 */
import { t } from '../../../lib/i18n.ts';
import { isEmpty, numberRange, requiredText, topicName, validate, type Rule } from '../../../lib/validators.ts';

export type ProtocolVersion = 3 | 4 | 5;
export type QoS = 0 | 1 | 2;

export interface Settings {
  protocol: 'ws' | 'wss';
  host: string;
  port: number | '';
  path: string;
  clientId: string;
  username: string;
  password: string;
  protocolVersion: ProtocolVersion;
  keepalive: number | '';
  clean: boolean;
  sessionExpiry: number | '';
  neverExpire: boolean;
  receiveMaximum: number | '';
  topicAliasMaximum: number | '';
  willTopic: string;
  willQos: QoS;
  willRetain: boolean;
  willPayload: string;
}

/** Spec part1 §9: the maximum 32-bit unsigned value, which MQTT 5 reads as 'never expire'. */
export const NEVER_EXPIRE = 4294967295;
/** EMQX's default WebSocket listener ports, offered beside the page's own. */
export const WS_PORTS = { ws: 8083, wss: 8084 } as const;
export const PROTOCOL_VERSIONS: { value: ProtocolVersion; label: string }[] = [
  { value: 3, label: '3.1' },
  { value: 4, label: '3.1.1' },
  { value: 5, label: '5.0' },
];

/** `emqx_` and eight random hex digits (spec part1 §9: random id length 8). */
export function randomClientId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return `emqx_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** A listener as `GET /listeners` lists it: the fields the address is read from. */
export interface Listener {
  type: string;
  enable?: boolean;
  bind: string | number;
  running?: boolean;
  status?: { running?: boolean };
  websocket?: { mqtt_path?: string };
}

/**
 * The address of the first enabled `ws`/`wss` listener on the page's host (its bind address is
 * often 0.0.0.0, which a browser cannot reach), or undefined when there is none.
 */
export function listenerAddress(listeners: readonly Listener[], page: { hostname: string } = location): Pick<Settings, 'protocol' | 'host' | 'port' | 'path'> | undefined {
  const ws = listeners.find((l) => (l.type === 'ws' || l.type === 'wss') && l.enable !== false);
  const port = ws && Number(String(ws.bind).split(':').pop());
  if (!ws || !port) return undefined;
  return { protocol: ws.type as 'ws' | 'wss', host: page.hostname || '127.0.0.1', port, path: ws.websocket?.mqtt_path || '/mqtt' };
}

/** Settings for a new connection, at the host and port the console was loaded from until the listeners are known. */
export function defaultSettings(page: { protocol: string; hostname: string; port: string } = location): Settings {
  const secure = page.protocol === 'https:';
  return {
    protocol: secure ? 'wss' : 'ws',
    host: page.hostname || '127.0.0.1',
    port: page.port ? Number(page.port) : secure ? 443 : 80,
    path: '/mqtt',
    clientId: randomClientId(),
    username: '',
    password: '',
    // MQTT 5.0, as the broker's own dashboard; 3.1 and 3.1.1 stay selectable.
    protocolVersion: 5,
    keepalive: 60,
    clean: true,
    sessionExpiry: 0,
    neverExpire: false,
    receiveMaximum: '',
    topicAliasMaximum: '',
    willTopic: '',
    willQos: 0,
    willRetain: false,
    willPayload: '',
  };
}

/** A topic name that may be left empty. */
export const optionalTopic: Rule = (value) => (isEmpty(value) ? undefined : topicName(value, {}));
const pathRule: Rule = (value) => (String(value ?? '').startsWith('/') ? undefined : t('websocket.pathInvalid'));
const requiredRule: Rule = (value, _values, label) => (isEmpty(value) || String(value).trim() === '' ? requiredText(label) : undefined);

/** Each setting's checks. */
const RULES: Partial<Record<keyof Settings, Rule[]>> = {
  host: [requiredRule],
  port: [requiredRule, numberRange(1, 65535)],
  path: [pathRule],
  clientId: [requiredRule],
  keepalive: [requiredRule, numberRange(0, 65535)],
  willTopic: [optionalTopic],
};
const V5_RULES: Partial<Record<keyof Settings, Rule[]>> = {
  sessionExpiry: [numberRange(0, NEVER_EXPIRE)],
  receiveMaximum: [numberRange(1, 65535)],
  topicAliasMaximum: [numberRange(0, 65535)],
};

/** The first problem of each field that has rules, by field name (empty when all are fine); a field's label is `websocket.<name>`. */
export function check(rules: Record<string, Rule[] | undefined>, values: object): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [field, list] of Object.entries(rules)) {
    const message = validate(list!, (values as Record<string, unknown>)[field], values as Record<string, unknown>, `websocket.${field}`);
    if (message) errors[field] = message;
  }
  return errors;
}

/** The first problem of each setting; MQTT 5 properties only count when 5.0 is chosen. */
export const validateSettings = (settings: Settings) => check(settings.protocolVersion === 5 ? { ...RULES, ...V5_RULES } : RULES, settings);

/** The WebSocket URL, e.g. `ws://127.0.0.1:18083/mqtt` (IPv6 hosts in brackets). */
export function brokerUrl(s: Settings): string {
  const host = s.host.includes(':') && !s.host.startsWith('[') ? `[${s.host}]` : s.host.trim();
  return `${s.protocol}://${host}:${s.port}${s.path}`;
}

export const optionalNumber = (value: number | '') => (value === '' ? undefined : Number(value));

/** `o` without its undefined entries, or undefined when none is left. */
export function defined<T extends object>(o: T): T | undefined {
  const kept = Object.entries(o).filter(([, v]) => v !== undefined);
  return kept.length ? (Object.fromEntries(kept) as T) : undefined;
}

/** The mqtt.js connect options for valid settings (reconnecting every `reconnectPeriod` ms). */
export function clientOptions(s: Settings, reconnectPeriod: number) {
  const v5 = s.protocolVersion === 5;
  const properties = v5
    ? {
      sessionExpiryInterval: s.neverExpire ? NEVER_EXPIRE : optionalNumber(s.sessionExpiry) ?? 0,
      receiveMaximum: optionalNumber(s.receiveMaximum),
      topicAliasMaximum: optionalNumber(s.topicAliasMaximum),
    }
    : undefined;
  return {
    clientId: s.clientId.trim(),
    username: s.username || undefined,
    password: s.password || undefined,
    protocolVersion: s.protocolVersion,
    // MQTT 3.1 names its protocol MQIsdp (and offers the mqttv3.1 WebSocket subprotocol).
    protocolId: s.protocolVersion === 3 ? 'MQIsdp' : 'MQTT',
    keepalive: Number(s.keepalive),
    clean: s.clean,
    reconnectPeriod,
    connectTimeout: 10_000,
    // No worker-timers: they need a blob: Worker, which the CSP does not allow (stack-notes §e).
    timerVariant: 'native' as const,
    properties: properties && defined(properties),
    will: s.willTopic ? { topic: s.willTopic, payload: s.willPayload, qos: s.willQos, retain: s.willRetain } : undefined,
  };
}
