/**
 * The gateway listener form (§19.1 common listener fields plus TLS for ssl and DTLS for dtls):
 * `tls.*` form values go to `ssl_options` or `dtls_options` by listener type.
 */
import { t } from '../../../lib/i18n.ts';
import { namePattern, type Rule } from '../../../lib/validators.ts';
import type { FieldDecl } from '../../../ui/resource.ts';
import { tlsFields } from '../../../ui/tls.ts';
import './messages.ts';

export interface Listener {
  id?: string;
  type: string;
  name: string;
  bind: string | number;
  enable?: boolean;
  max_connections?: number | 'infinity';
  max_conn_rate?: number;
  mountpoint?: string;
  enable_authn?: boolean;
  ssl_options?: Record<string, unknown>;
  dtls_options?: Record<string, unknown>;
  running?: boolean;
  status?: { running?: boolean; current_connections?: number; max_connections?: number | string };
  node_status?: unknown;
  [key: string]: unknown;
}

const bindRule: Rule = (value) => (!value || /^(\d{1,5}|[^\s:]+:\d{1,5}|\[[0-9a-fA-F:]+\]:\d{1,5})$/.test(String(value)) ? undefined : t('gateway.bindInvalid'));
const maxRule: Rule = (value) => (!value || value === 'infinity' || /^\d+$/.test(String(value)) ? undefined : t('validation.number'));
const secure = (v: Record<string, unknown>) => v.type === 'ssl' || v.type === 'dtls';
const TLS = ['verify', 'cacertfile', 'certfile', 'keyfile', 'versions', 'ciphers'];

export function listenerFields(types: string[], create: boolean): FieldDecl[] {
  return [
    ...(create ? [
      { name: 'type', label: 'gateway.listenerType', kind: 'select' as const, options: types.map((type) => ({ value: type, label: type })) },
      { name: 'name', label: 'gateway.listenerName', required: true, requiredMessage: 'validation.nameRequired', rules: [namePattern] },
    ] : []),
    { name: 'enable', label: 'gateway.enable', kind: 'switch' },
    { name: 'bind', label: 'gateway.bind', required: true, rules: [bindRule], placeholder: '0.0.0.0:1884' },
    { name: 'max_connections', label: 'gateway.maxConnections', required: true, rules: [maxRule] },
    { name: 'max_conn_rate', label: 'gateway.maxConnRate', kind: 'number', required: true },
    { name: 'mountpoint', label: 'gateway.mountpoint' },
    { name: 'enable_authn', label: 'gateway.enableAuthn', kind: 'switch' },
    // The kit's server TLS group (cert and key required), shown for ssl and dtls listeners.
    ...tlsFields('tls', { server: true })
      .filter((f) => TLS.includes(f.name.slice(4)))
      .map((f) => ({ ...f, visible: (v: Record<string, unknown>) => secure(v) && (f.visible?.(v) ?? true) })),
  ];
}

/** Form values of a listener (new ones get the kind's default type and bind). */
export function listenerValues(l: Partial<Listener>): Record<string, unknown> {
  const tls = (l.type === 'dtls' ? l.dtls_options : l.ssl_options) ?? {};
  return {
    type: l.type, name: l.name ?? '', enable: l.enable ?? true, bind: String(l.bind ?? ''), max_connections: String(l.max_connections ?? 1024),
    max_conn_rate: l.max_conn_rate ?? 1000, mountpoint: l.mountpoint ?? '', enable_authn: l.enable_authn ?? true,
    ...Object.fromEntries(TLS.map((k) => [`tls.${k}`, tls[k] ?? (k === 'verify' ? 'verify_none' : '')])),
  };
}

/** The listener body: `previous` (minus runtime state) with the form's values on top. */
export function listenerBody(values: Record<string, unknown>, previous: Partial<Listener> = {}): Listener {
  const { status, node_status, running, ...kept } = previous;
  const type = String(values.type ?? previous.type);
  const body: Listener = {
    ...kept, type, name: String(values.name ?? previous.name), enable: Boolean(values.enable), bind: String(values.bind),
    max_connections: values.max_connections === 'infinity' ? 'infinity' : Number(values.max_connections),
    max_conn_rate: Number(values.max_conn_rate), mountpoint: String(values.mountpoint ?? ''), enable_authn: Boolean(values.enable_authn),
  };
  if (type === 'ssl' || type === 'dtls') {
    const key = type === 'ssl' ? 'ssl_options' : 'dtls_options';
    const tls = { ...(previous[key] as Record<string, unknown> | undefined) };
    for (const k of TLS) {
      const value = values[`tls.${k}`];
      if (value && !(Array.isArray(value) && value.length === 0)) tls[k] = value;
    }
    body[key] = tls;
  }
  return body;
}
