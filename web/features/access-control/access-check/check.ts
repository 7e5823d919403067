/**
 * The access check: connects as the given client to the broker's MQTT-over-WebSocket listener
 * with MQTT 5, reads CONNACK, SUBACK and PUBACK reason codes (and a DISCONNECT, e.g. 0x87 when
 * `deny_action = disconnect`), while a short clientid trace (`/trace`) records the broker's own
 * authentication and authorization lines; the trace is deleted afterwards. It decides nothing
 * itself: the verdicts are the broker's reason codes, the sources are the trace's words.
 */
import { api } from '../../../lib/api.ts';

export type Step = 'connect' | 'subscribe' | 'publish';

export interface CheckInput {
  clientid: string;
  username: string;
  password: string;
  topic: string;
  subscribe: boolean;
  publish: boolean;
}

export interface StepResult {
  step: Step;
  /** The reason code the broker answered with; undefined when it did not answer in time. */
  code?: number;
  ok: boolean;
  /** The deciding source from the trace (`built_in_database`, `password_based:http` …). */
  source?: string;
}

export interface CheckResult {
  url: string;
  steps: StepResult[];
  /** Reason code of a DISCONNECT the broker sent. */
  disconnect?: number;
  /** The trace's authentication and authorization lines. */
  lines: string[];
}

interface Listener {
  type: string;
  enable?: boolean;
  bind: string;
  websocket?: { mqtt_path?: string };
}

/**
 * The URL of the first enabled `ws` or `wss` listener, on the host the console was loaded from
 * (the dashboard port serves no `/mqtt`), or undefined when the broker has none.
 */
export async function wsAddress(page: { hostname: string } = location): Promise<string | undefined> {
  const listeners = await api.get<Listener[]>('/listeners');
  const ws = listeners.find((l) => (l.type === 'ws' || l.type === 'wss') && l.enable !== false);
  if (!ws) return undefined;
  const port = ws.bind.slice(ws.bind.lastIndexOf(':') + 1);
  const host = page.hostname.includes(':') ? `[${page.hostname}]` : page.hostname;
  return `${ws.type}://${host}:${port}${ws.websocket?.mqtt_path ?? '/mqtt'}`;
}

interface Packet {
  reasonCode?: number;
  granted?: (number | { qos: number })[];
}
interface Client {
  on(event: 'connect' | 'disconnect', fn: (packet: Packet) => void): void;
  on(event: 'error', fn: (error: { code?: number }) => void): void;
  on(event: 'close', fn: () => void): void;
  subscribe(topic: string, options: object, fn: (error: { code?: number; packet?: Packet } | null, granted?: { qos: number }[]) => void): void;
  publish(topic: string, payload: string, options: object, fn: (error?: { code?: number }, packet?: Packet) => void): void;
  unsubscribe(topic: string, fn: () => void): void;
  end(force: boolean, options: object, fn: () => void): void;
}
export type Connect = (url: string, options: object) => Promise<Client>;

const loadConnect: Connect = async (url, options) => (await import('mqtt')).default.connect(url, options) as unknown as Client;

const WAIT_MS = 5000;
const closed = new WeakSet<Client>();
/** Resolves with `fn`'s answer, or undefined after WAIT_MS or when the connection is (or gets) closed. */
function answer<T>(client: Client, fn: (done: (value: T) => void) => void): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), WAIT_MS);
    const done = (value: T | undefined) => {
      clearTimeout(timer);
      resolve(value);
    };
    client.on('close', () => done(undefined));
    fn(done);
    if (closed.has(client)) done(undefined);
  });
}

/** A name POST /trace accepts: letters first, then letters, digits, `-` and `_`. */
const traceName = () => `accesscheck_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The broker's trace lines of the check, from every node that wrote some. */
async function readTrace(name: string): Promise<string[]> {
  const nodes = await api.get<{ node: string; size: number }[]>(`/trace/${name}/log_detail`);
  const texts = await Promise.all(nodes.filter((n) => n.size > 0).map((n) =>
    api.get<{ items: string }>(`/trace/${name}/log`, { params: { node: n.node, bytes: 1048576, position: 0 } }).then((r) => r.items)));
  return texts.join('\n').split('\n').filter((line) => /\[AUTH[NZ]\]|authorization_permission_/.test(line));
}

/** The authenticator that answered (not `ignore`), from the AUTHN lines. */
function authnSource(lines: string[]): string | undefined {
  return lines.map((l) => /msg: authenticator_result, authenticator: ([^,]+), result: (?!ignore)/.exec(l)?.[1]).find(Boolean);
}

/** The source of the decision on `topic` for `action`, from emqx_access_control's decision line. */
export function authzSource(lines: string[], action: 'PUBLISH' | 'SUBSCRIBE', topic: string): string | undefined {
  for (const line of lines) {
    const m = /msg: authorization_permission_(?:allowed|denied),.* topic: ([^,]+),.* action: (\w+)\([^)]*\), source: (.+)$/.exec(line);
    if (m && m[1] === topic && m[2] === action) return m[3].trim();
  }
  return undefined;
}

/**
 * Runs a check: connect, then subscribe and unsubscribe, then one QoS 1 publish (the caller has
 * asked the operator first: it is a real message), then disconnect. The trace is deleted in every case.
 */
export async function runCheck(input: CheckInput, connect: Connect = loadConnect): Promise<CheckResult> {
  const url = await wsAddress();
  if (!url) throw new Error('no-ws-listener');
  const name = traceName();
  const end = new Date(Date.now() + 5 * 60_000).toISOString();
  await api.post('/trace', { name, type: 'clientid', clientid: input.clientid, end_at: end });
  const result: CheckResult = { url, steps: [], lines: [] };
  try {
    const client = await connect(url, {
      protocolVersion: 5, clientId: input.clientid, username: input.username || undefined, password: input.password || undefined,
      reconnectPeriod: 0, connectTimeout: WAIT_MS, clean: true, properties: { sessionExpiryInterval: 0 },
    });
    client.on('disconnect', (packet) => (result.disconnect = packet.reasonCode));
    client.on('close', () => closed.add(client));
    const connack = await answer<number>(client, (done) => {
      client.on('connect', (packet) => done(packet.reasonCode ?? 0));
      client.on('error', (error) => typeof error.code === 'number' && done(error.code));
    });
    result.steps.push({ step: 'connect', code: connack, ok: connack === 0 });
    if (connack === 0) {
      if (input.subscribe) {
        const code = await answer<number>(client, (done) => client.subscribe(input.topic, { qos: 1 }, (error, granted) => {
          const refused = error?.packet?.granted?.[0];
          done(typeof refused === 'number' ? refused : typeof refused === 'object' ? refused.qos : error?.code ?? granted?.[0]?.qos ?? 0x80);
        }));
        result.steps.push({ step: 'subscribe', code, ok: code !== undefined && code < 0x80 });
        if (code !== undefined && code < 0x80) await answer(client, (done) => client.unsubscribe(input.topic, () => done(true)));
      }
      if (input.publish && result.disconnect === undefined) {
        const code = await answer<number>(client, (done) => client.publish(input.topic, 'access check', { qos: 1 }, (error, packet) =>
          done(error?.code ?? packet?.reasonCode ?? 0)));
        result.steps.push({ step: 'publish', code, ok: code !== undefined && code < 0x80 });
      }
    }
    await answer(client, (done) => client.end(false, {}, () => done(true)));
    // EMQX's trace handler writes through disk_log: give the lines a moment to reach the file.
    await new Promise((resolve) => setTimeout(resolve, 600));
    result.lines = await readTrace(name);
  } finally {
    await api.del(`/trace/${name}`);
  }
  for (const step of result.steps) {
    step.source = step.step === 'connect' ? authnSource(result.lines) : authzSource(result.lines, step.step === 'publish' ? 'PUBLISH' : 'SUBSCRIBE', input.topic);
  }
  return result;
}

interface AclRule {
  permission: string;
  action: string;
  topic: string;
}

/** Whether an authorization rule's topic (placeholders filled, `eq ` exact) covers `topic`. */
export function ruleCovers(filter: string, topic: string, who: { clientid: string; username: string }): boolean {
  const filled = filter.replace(/\$\{clientid\}/g, who.clientid).replace(/\$\{username\}/g, who.username);
  if (filled.startsWith('eq ')) return filled.slice(3) === topic;
  const f = filled.split('/');
  const t = topic.split('/');
  if (t[0]?.startsWith('$') && (f[0] === '#' || f[0] === '+')) return false;
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length || (f[i] !== '+' && f[i] !== t[i])) return false;
  }
  return f.length === t.length;
}

/**
 * The built-in database rule that matched, for the sentence: the first rule of the username's,
 * then the client id's, then everyone's list (emqx_authz_mnesia's order) that covers the request.
 */
export async function builtInRule(who: { clientid: string; username: string }, action: 'publish' | 'subscribe', topic: string): Promise<(AclRule & { scope: string }) | undefined> {
  const base = '/authorization/sources/built_in_database/rules';
  const lists: [string, string][] = [['username', `${base}/users/${encodeURIComponent(who.username)}`], ['clientid', `${base}/clients/${encodeURIComponent(who.clientid)}`], ['all', `${base}/all`]];
  for (const [scope, path] of lists) {
    if (scope === 'username' && !who.username) continue;
    const rules = await api.get<{ rules: AclRule[] }>(path).then((r) => r.rules, () => [] as AclRule[]);
    const rule = rules.find((r) => (r.action === 'all' || r.action === action) && ruleCovers(r.topic, topic, who));
    if (rule) return { ...rule, scope };
  }
  return undefined;
}
