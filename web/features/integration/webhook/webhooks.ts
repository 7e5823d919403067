/**
 * A webhook is the console's name for an http connector, an http action and a rule all named
 * `<name>_WH_D` (emqx-api-part2 §7): found by joining the three lists, created, toggled and
 * deleted as one, in the broker console's order.
 */
import { api } from '../../../lib/api.ts';
import { fetchAll } from '../../../lib/fetchAll.ts';
import { loadSchema, type SchemaDocument } from '../../../lib/schemas.ts';
import { apiPath, defaultsOf, WEBHOOK_SUFFIX, writeBody, type Bridge } from '../connectors/bridge.ts';
import type { Rule } from '../rules/rules.tsx';

export interface Webhook {
  name: string;
  connector: Bridge;
  action: Bridge;
  rule: Rule;
  enable: boolean;
}

const full = (name: string) => `${name}${WEBHOOK_SUFFIX}`;
const actionId = (name: string) => `http:${full(name)}`;

/** Every webhook, ordered as the connectors are. */
export async function listWebhooks(signal?: AbortSignal): Promise<Webhook[]> {
  const [connectors, actions, rules] = await Promise.all([
    api.get<Bridge[]>('/connectors', { signal }),
    api.get<Bridge[]>('/actions', { signal }),
    fetchAll<Rule>('/rules', {}, { signal }),
  ]);
  const out: Webhook[] = [];
  for (const connector of connectors) {
    if (connector.type !== 'http' || !connector.name.endsWith(WEBHOOK_SUFFIX)) continue;
    // 5.8 actions list their rules; 5.5 ones do not, and the rule's own `actions` decides (below).
    const action = actions.find((a) => a.type === 'http' && a.name === connector.name && (a.rules ?? [connector.name]).includes(connector.name));
    const rule = rules.find((r) => r.id === connector.name && r.actions.some((x) => x === `http:${connector.name}`));
    if (!action || !rule) continue;
    out.push({ name: connector.name.slice(0, -WEBHOOK_SUFFIX.length), connector, action, rule, enable: action.enable && rule.enable });
  }
  return out;
}

/** The form values of a webhook (or of a new one). */
export interface WebhookValues {
  name: string;
  description: string;
  triggers: string[];
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

export const sqlOf = (triggers: string[]) => `SELECT\n  *\nFROM\n  ${triggers.map((x) => JSON.stringify(x)).join(',\n  ')}`;

function component(doc: SchemaDocument, key: string) {
  return defaultsOf(doc, { $ref: `#/components/schemas/${key}` });
}

/** Bodies of the three objects: connector and action start from the http `post_*` defaults. */
export async function bodies(v: WebhookValues) {
  const [connectors, actions] = await Promise.all([loadSchema('connectors'), loadSchema('actions')]);
  const name = full(v.name);
  const connector = { ...component(connectors, 'bridge_http.post_connector'), type: 'http', name, description: v.description, url: v.url, headers: v.headers };
  const base = component(actions, 'bridge_http.post_bridge_v2');
  const action = {
    ...base, type: 'http', name, connector: name, description: v.description,
    parameters: { ...(base.parameters as object), method: v.method, headers: v.headers, ...(v.body ? { body: v.body } : {}) },
  };
  const rule = { id: name, sql: sqlOf(v.triggers), actions: [actionId(v.name)], description: v.description, enable: true };
  return { connector, action, rule };
}

/** POST connector → action → rule (no rollback, like the broker console). */
export async function createWebhook(v: WebhookValues) {
  const b = await bodies(v);
  await api.post('/connectors', b.connector);
  await api.post('/actions', b.action);
  await api.post('/rules', b.rule);
}

/** PUT connector → action → rule with the edited values, keeping what the form does not show. */
export async function updateWebhook(w: Webhook, v: WebhookValues) {
  const name = full(w.name);
  await api.put(apiPath('connectors', `http:${name}`), writeBody({ ...w.connector, description: v.description, url: v.url, headers: v.headers }, false));
  const parameters = { ...(w.action.parameters as object), method: v.method, headers: v.headers, body: v.body || undefined };
  await api.put(apiPath('actions', `http:${name}`), writeBody({ ...w.action, description: v.description, parameters }, false));
  await api.put(`/rules/${encodeURIComponent(name)}`, { sql: sqlOf(v.triggers), description: v.description });
}

/** The three enable calls in parallel (§7). */
export function setEnabled(w: Webhook, enable: boolean) {
  const name = full(w.name);
  return Promise.all([
    api.put(apiPath('actions', `http:${name}`, `/enable/${enable}`)),
    api.put(`/rules/${encodeURIComponent(name)}`, { enable }),
    api.put(apiPath('connectors', `http:${name}`, `/enable/${enable}`)),
  ]);
}

/** DELETE rule → action → connector. */
export async function deleteWebhook(w: Webhook) {
  const name = full(w.name);
  await api.del(`/rules/${encodeURIComponent(name)}`);
  await api.del(apiPath('actions', `http:${name}`));
  await api.del(apiPath('connectors', `http:${name}`));
}
