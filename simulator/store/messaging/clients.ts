// Cluster-wide client and subscription queries (emqx_mgmt_api_clients, emqx_mgmt_api_subscriptions):
// the live sessions of node 1 and the fixture clients of the other nodes, walked node by node in
// creation order, with the filters of emqx-api-part1 §9.1 and §10.1, the page envelope (A) and
// the cursor envelope of /clients_v2 (D). It reads only; kicks and subscriptions go through the
// broker bridge.
import { apiError } from '../../plugins/errors.ts';
import { clientView, type ClientLive, type ClientRecord, type ClientView, type SessionQueueView, type SubOptions } from './client-record.ts';
import type { Cluster } from '../cluster/cluster.ts';
import type { FixtureNode } from '../cluster/fixture-nodes.ts';
import type { MqttState, Session } from './mqtt.ts';
import { paginateRows, type PageQuery, type QueryEnvelope } from '../pagination.ts';
import { parseShare, topicMatches } from '../../lib/topic.ts';

/** A client wherever it lives. */
export interface Located {
  node: string;
  nodeIndex: number;
  record: ClientRecord;
  /** Set for node 1's real sessions. */
  session?: Session;
  /** Set for clients of the other nodes. */
  fixture?: FixtureNode;
}

export interface ClientFilters {
  node?: string;
  clientid?: string[];
  username?: string[];
  ip_address?: string;
  conn_state?: 'connected' | 'idle' | 'disconnected';
  clean_start?: boolean;
  proto_ver?: number;
  like_clientid?: string;
  like_username?: string;
  like_ip_address?: string;
  /** Epoch ms bounds. */
  gte_created_at?: number;
  lte_created_at?: number;
  gte_connected_at?: number;
  lte_connected_at?: number;
}

export interface SubscriptionFilters {
  node?: string;
  clientid?: string;
  topic?: string;
  match_topic?: string;
  qos?: number;
  share_group?: string;
}

export interface SubscriptionView {
  node: string;
  topic: string;
  clientid: string;
  qos: number;
  nl: number;
  rap: number;
  rh: number;
}

export interface CursorEnvelope<T> {
  data: T[];
  meta: { count: number; cursor?: string };
}

const FUZZY = ['like_clientid', 'like_username', 'like_ip_address'] as const;

/** True when a fuzzy filter is present: EMQX then leaves `count` out of the envelope. */
export function isFuzzy(filters: ClientFilters): boolean {
  return FUZZY.some((key) => filters[key] !== undefined);
}

function clientPredicate(f: ClientFilters): (r: ClientRecord) => boolean {
  const ids = f.clientid && new Set(f.clientid);
  const names = f.username && new Set(f.username);
  return (r) => {
    if (ids && !ids.has(r.clientid)) return false;
    if (names && !names.has(r.username ?? '')) return false;
    if (f.ip_address !== undefined && r.ip_address !== f.ip_address) return false;
    // Only registered sessions are listed, so none is ever `idle` (TCP up, CONNECT pending).
    if (f.conn_state !== undefined && (f.conn_state === 'idle' || r.connected !== (f.conn_state === 'connected'))) return false;
    if (f.clean_start !== undefined && r.clean_start !== f.clean_start) return false;
    if (f.proto_ver !== undefined && r.proto_ver !== f.proto_ver) return false;
    // like_* are substring matches, not patterns (§9.1).
    if (f.like_clientid !== undefined && !r.clientid.includes(f.like_clientid)) return false;
    if (f.like_username !== undefined && !(r.username ?? '').includes(f.like_username)) return false;
    if (f.like_ip_address !== undefined && !r.ip_address.includes(f.like_ip_address)) return false;
    if (f.gte_created_at !== undefined && r.created_at < f.gte_created_at) return false;
    if (f.lte_created_at !== undefined && r.created_at > f.lte_created_at) return false;
    if (f.gte_connected_at !== undefined && r.connected_at < f.gte_connected_at) return false;
    if (f.lte_connected_at !== undefined && r.connected_at > f.lte_connected_at) return false;
    return true;
  };
}

function encodeCursor(nodeIndex: number, seq: number): string {
  return Buffer.from(`c1:${nodeIndex}:${seq}`).toString('base64url');
}

function decodeCursor(cursor: string, nodes: number): { nodeIndex: number; seq: number } {
  const match = /^c1:(\d{1,4}):(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  const nodeIndex = Number(match?.[1]);
  if (!match || nodeIndex >= nodes) throw apiError(400, 'BAD_REQUEST', 'bad cursor');
  return { nodeIndex, seq: Number(match[2]) };
}

export class Clients {
  /** The broker's session layer: real window and queue figures of node 1's sessions. */
  sessionQueues: SessionQueueView | null = null;

  constructor(
    private readonly mqtt: MqttState,
    private readonly cluster: Cluster,
  ) {}

  /** Index of a node in cluster order; an unknown node is refused as EMQX's RPC would fail. */
  private nodeIndex(node: string): number {
    const index = this.cluster.names().indexOf(node);
    // EMQX answers 500 NODE_DOWN; bad input never gets a 5xx here (security.md S8), so 400.
    if (index < 0) throw apiError(400, 'NODE_DOWN', `bad rpc call ${node}, Reason nodedown`);
    return index;
  }

  /** Every client, node by node in creation order; from `from` on, or only that node. */
  *all(options: { only?: number; from?: { nodeIndex: number; seq: number } } = {}): Generator<Located> {
    const names = this.cluster.names();
    for (let i = 0; i < names.length; i++) {
      if (options.only !== undefined && i !== options.only) continue;
      if (options.from && i < options.from.nodeIndex) continue;
      const after = options.from && i === options.from.nodeIndex ? options.from.seq : 0;
      if (i === 0) {
        for (const session of this.mqtt.sessions.values()) {
          if (session.seq > after) yield { node: names[0], nodeIndex: 0, record: session, session };
        }
      } else {
        const fixture = this.cluster.fixtureNodes[i - 1];
        for (const client of fixture.clients.values()) {
          if (client.seq > after) yield { node: names[i], nodeIndex: i, record: client, fixture };
        }
      }
    }
  }

  /** Finds a client anywhere in the cluster. */
  find(clientid: string): Located | null {
    const session = this.mqtt.sessions.get(clientid);
    if (session) return { node: this.mqtt.node, nodeIndex: 0, record: session, session };
    const names = this.cluster.names();
    for (let i = 0; i < this.cluster.fixtureNodes.length; i++) {
      const fixture = this.cluster.fixtureNodes[i];
      const client = fixture.clients.get(clientid);
      if (client) return { node: names[i + 1], nodeIndex: i + 1, record: client, fixture };
    }
    return null;
  }

  /** Like find(), but 404 CLIENTID_NOT_FOUND when the client does not exist (§9.3). */
  get(clientid: string): Located {
    const found = this.find(clientid);
    if (!found) throw apiError(404, 'CLIENTID_NOT_FOUND', 'Client ID not found');
    return found;
  }

  live(located: Located): ClientLive {
    if (located.fixture) return located.fixture.live(located.record as Parameters<FixtureNode['live']>[0]);
    const session = located.session as Session;
    const queues = this.sessionQueues?.stats(session.clientid) ?? undefined;
    return {
      counters: session.counters,
      recv_oct: session.socket ? session.socket.bytesRead : session.counters.recv_oct,
      send_oct: session.socket ? session.socket.bytesWritten : session.counters.send_oct,
      inflight_cnt: queues?.inflight_cnt ?? 0,
      mqueue_len: queues?.mqueue_len ?? 0,
      queues,
    };
  }

  view(located: Located, fields?: readonly string[]): ClientView {
    const full = clientView(located.node, located.record, this.live(located));
    if (!fields) return full;
    const projected: ClientView = {};
    for (const field of fields) if (field in full) projected[field] = full[field];
    return projected;
  }

  private matching(filters: ClientFilters, from?: { nodeIndex: number; seq: number }): Iterable<Located> {
    const only = filters.node === undefined ? undefined : this.nodeIndex(filters.node);
    const predicate = clientPredicate(filters);
    const rows = this.all({ only, from });
    return {
      *[Symbol.iterator]() {
        for (const row of rows) if (predicate(row.record)) yield row;
      },
    };
  }

  /** GET /clients: envelope A; `count` only without fuzzy filters. */
  list(filters: ClientFilters, page: PageQuery, fields?: readonly string[]): QueryEnvelope<ClientView> {
    return paginateRows(this.matching(filters), page, (row) => this.view(row, fields), { count: !isFuzzy(filters) });
  }

  /** GET /clients_v2: envelope D; `meta.cursor` only when more rows follow (§2.2). */
  listCursor(filters: ClientFilters, cursor: string | undefined, limit: number, fields?: readonly string[]): CursorEnvelope<ClientView> {
    const from = cursor === undefined ? undefined : decodeCursor(cursor, this.cluster.names().length);
    const data: ClientView[] = [];
    let last: Located | null = null;
    let more = false;
    for (const row of this.matching(filters, from)) {
      if (data.length === limit) {
        more = true;
        break;
      }
      data.push(this.view(row, fields));
      last = row;
    }
    const meta: CursorEnvelope<ClientView>['meta'] = { count: data.length };
    if (more && last) meta.cursor = encodeCursor(last.nodeIndex, last.record.seq);
    return { data, meta };
  }

  /** The subscriptions of one client, as GET /clients/{clientid}/subscriptions lists them. */
  subscriptionsOf(located: Located): SubscriptionView[] {
    return [...located.record.subscriptions].map(([topic, options]) => subscriptionView(located, topic, options));
  }

  /** GET /subscriptions: envelope A over every subscription of the cluster. */
  subscriptions(filters: SubscriptionFilters, page: PageQuery): QueryEnvelope<SubscriptionView> {
    const only = filters.node === undefined ? undefined : this.nodeIndex(filters.node);
    const rows = this.all({ only });
    const match = (topic: string, options: SubOptions): boolean => {
      if (filters.topic !== undefined && topic !== filters.topic) return false;
      if (filters.qos !== undefined && options.qos !== filters.qos) return false;
      if (filters.share_group !== undefined && parseShare(topic)?.group !== filters.share_group) return false;
      if (filters.match_topic !== undefined && !topicMatches(filters.match_topic, topic)) return false;
      return true;
    };
    const matching = {
      *[Symbol.iterator]() {
        for (const row of rows) {
          if (filters.clientid !== undefined && row.record.clientid !== filters.clientid) continue;
          for (const [topic, options] of row.record.subscriptions) {
            if (match(topic, options)) yield subscriptionView(row, topic, options);
          }
        }
      },
    };
    // match_topic is EMQX's fuzzy subscription filter: no exact count then.
    return paginateRows(matching, page, (v) => v, { count: filters.match_topic === undefined });
  }
}

function subscriptionView(located: Located, topic: string, options: SubOptions): SubscriptionView {
  return { node: located.node, topic, clientid: located.record.clientid, qos: options.qos, nl: options.nl, rap: options.rap, rh: options.rh };
}
