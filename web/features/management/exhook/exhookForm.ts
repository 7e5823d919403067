/**
 * The ExHook server form (§20 server config) on flat dotted names: `auto_reconnect` is an
 * interval or `false`, so the form splits it into a switch and a duration; TLS is `ssl.*`.
 */
import { flatten, unflatten } from '../../../lib/paths.ts';
import { t } from '../../../lib/i18n.ts';
import { namePattern, type Rule } from '../../../lib/validators.ts';
import type { FieldDecl } from '../../../ui/resource.ts';
import { tlsFields } from '../../../ui/tls.ts';
import type { Exhook } from './exhook.tsx';
import { configOf } from './exhook.tsx';
import './messages.ts';

const httpUrl: Rule = (value) => (!value || /^https?:\/\/[^\s/]+/.test(String(value)) ? undefined : t('exhook.urlInvalid'));

export function exhookFields(create: boolean): FieldDecl[] {
  return [
    ...(create ? [{ name: 'name', label: 'exhook.name', required: true, requiredMessage: 'validation.nameRequired', rules: [namePattern] }] : []),
    { name: 'enable', label: 'exhook.enable', kind: 'switch' },
    { name: 'url', label: 'exhook.url', required: true, rules: [httpUrl], placeholder: 'http://127.0.0.1:9000' },
    { name: 'pool_size', label: 'exhook.poolSize', kind: 'number', required: true },
    { name: 'request_timeout', label: 'exhook.requestTimeout', kind: 'duration', required: true },
    { name: 'failed_action', label: 'exhook.failedAction', kind: 'select', help: 'exhook.failedActionHelp', options: [{ value: 'deny', label: 'deny' }, { value: 'ignore', label: 'ignore' }] },
    { name: 'auto_reconnect_on', label: 'exhook.autoReconnect', kind: 'switch' },
    { name: 'auto_reconnect', label: 'exhook.reconnectInterval', kind: 'duration', required: true, visible: (v) => Boolean(v.auto_reconnect_on) },
    // The client TLS group of the kit: enable, verify, CA/cert/key, SNI, versions, ciphers.
    ...tlsFields('ssl'),
  ];
}

/** The schema defaults of a new server (emqx_exhook_schema). */
export const NEW_SERVER: Exhook = {
  name: '', enable: true, url: '', pool_size: 8, request_timeout: '5s', failed_action: 'deny', auto_reconnect: '60s',
  ssl: { enable: false, verify: 'verify_none' },
};

export function toValues(h: Exhook): Record<string, unknown> {
  const flat = flatten(configOf(h));
  return { ...flat, auto_reconnect_on: h.auto_reconnect !== false, auto_reconnect: h.auto_reconnect || '60s' };
}

export function toBody(values: Record<string, unknown>): Record<string, unknown> {
  const { auto_reconnect_on, auto_reconnect, ...rest } = values;
  const body = unflatten(rest);
  const ssl = body.ssl as Record<string, unknown> | undefined;
  // Empty PEM fields and lists mean "none": EMQX rejects an empty file name.
  if (ssl) for (const key of Object.keys(ssl)) if (ssl[key] === '' || (Array.isArray(ssl[key]) && !(ssl[key] as unknown[]).length)) delete ssl[key];
  return { ...body, pool_size: Number(values.pool_size), auto_reconnect: auto_reconnect_on ? auto_reconnect : false };
}
