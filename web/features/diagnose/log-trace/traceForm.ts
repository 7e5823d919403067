/**
 * The create form of a log trace: name, type and the value it follows (a field per type),
 * the time window (end after start) and how payloads are written; it posts `/trace`.
 */
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { isEmpty, strictNamePattern, topicFilter, type Rule } from '../../../lib/validators.ts';
import type { FormDecl } from '../../../ui/resource.ts';
import { TYPE_LABELS, type Trace } from './trace.ts';
import './messages.ts';

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
function isIp(s: string): boolean {
  if (IPV4.test(s)) return true;
  if (!s.includes(':') || /[^0-9a-fA-F:.]/.test(s)) return false;
  try {
    return Boolean(new URL(`http://[${s}]/`).hostname);
  } catch {
    return false;
  }
}

const ipAddress: Rule = (value) => (isEmpty(value) || isIp(String(value).trim()) ? undefined : t('logTrace.invalidIp'));
const endAfterStart: Rule = (value, values) =>
  !isEmpty(value) && !isEmpty(values.start_at) && Date.parse(String(value)) <= Date.parse(String(values.start_at)) ? t('logTrace.endAfterStart') : undefined;

const option = (value: string, label: string) => ({ value, label });

export const createTrace: FormDecl<Trace> = {
  title: 'logTrace.create',
  success: 'logTrace.created',
  fields: [
    { name: 'name', label: 'logTrace.name', required: true, requiredMessage: 'validation.nameRequired', rules: [strictNamePattern] },
    { name: 'type', label: 'logTrace.type', kind: 'select', options: Object.entries(TYPE_LABELS).map(([v, l]) => option(v, l)) },
    // The condition is the field named by the type, as the API takes it.
    { name: 'clientid', label: 'logTrace.typeClientid', required: true, visible: (v) => v.type === 'clientid' },
    { name: 'topic', label: 'logTrace.typeTopic', required: true, rules: [topicFilter], help: 'logTrace.topicHelp', visible: (v) => v.type === 'topic' },
    { name: 'ip_address', label: 'logTrace.typeIpAddress', required: true, rules: [ipAddress], visible: (v) => v.type === 'ip_address' },
    { name: 'start_at', label: 'logTrace.startAt', kind: 'datetime', required: true },
    { name: 'end_at', label: 'logTrace.endAt', kind: 'datetime', required: true, rules: [endAfterStart] },
    {
      name: 'payload_encode', label: 'logTrace.payloadEncode', kind: 'select', help: 'logTrace.payloadHelp',
      options: [option('text', 'logTrace.encodeText'), option('hex', 'logTrace.encodeHex'), option('hidden', 'logTrace.encodeHidden')],
    },
  ],
  // EMQX's default window: from now for ten minutes.
  initial: () => ({ start_at: new Date().toISOString(), end_at: new Date(Date.now() + 10 * 60_000).toISOString() }),
  submit: (values) => {
    const { name, type, start_at, end_at, payload_encode } = values;
    return api.post('/trace', { name, type, [String(type)]: String(values[String(type)]).trim(), start_at, end_at, payload_encode });
  },
};
