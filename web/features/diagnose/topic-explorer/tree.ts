/**
 * The Topic Explorer's model: every topic seen, as a tree of levels, with per subtree the messages
 * counted, their rate over the last seconds and the last message, and per topic a short history.
 * Plain objects outside valtio (thousands of messages a second must not be proxied); memory is
 * bounded by topic, history and payload limits, and what is dropped is counted. No rendering here.
 */
import { PAYLOAD_VIEW_LIMIT } from '../../../ui/PayloadView.tsx';
import type { LoggedMessage } from '../websocket/messageLog.ts';
import { topicMatches } from '../websocket/monitors.ts';

/** A message as the test client logs it (its payload null when over the view limit, 1 MB). */
export type TopicMessage = LoggedMessage;

export interface TopicNode {
  /** This level's name ('' is a valid level). */
  name: string;
  /** The topic up to this level. */
  path: string;
  depth: number;
  parent?: TopicNode;
  children: Map<string, TopicNode>;
  /** Messages seen in this subtree. */
  count: number;
  /** Messages per second in this subtree over the rate window. */
  rate: number;
  /** Counts at the last samples (a ring indexed like the tree's sample times). */
  samples: number[];
  /** The newest message of the subtree. */
  last?: TopicMessage;
  /** Whether messages arrived on exactly this topic. */
  isTopic: boolean;
  /** Whether the broker holds a retained message for this topic, as far as seen. */
  retained: boolean;
  /** This topic's newest messages, oldest first. */
  history: TopicMessage[];
  /** Messages of this topic dropped from its history. */
  dropped: number;
}

export type Sort = 'name' | 'rate' | 'last';

/** Messages kept per topic. */
export const HISTORY_PER_TOPIC = 50;
/** Messages kept over all topics. */
export const MAX_KEPT = 50_000;
/** Payload bytes kept over all topics. */
export const MAX_BYTES = 32 * 1024 * 1024;
/** Tree nodes at most; deeper messages past it count on their deepest known level. */
export const MAX_NODES = 60_000;
/** Samples in the rate window (one a second: rates are the mean of the last five seconds). */
export const RATE_WINDOW = 5;

let nextId = 1;

function newNode(name: string, path: string, depth: number, window: number, parent?: TopicNode): TopicNode {
  return { name, path, depth, parent, children: new Map(), count: 0, rate: 0, samples: new Array(window).fill(0), isTopic: false, retained: false, history: [], dropped: 0 };
}

/**
 * The bytes to keep: mqtt.js hands out views into its read buffers. A view into a buffer not much
 * larger (in browsers each WebSocket frame has its own) is kept as it is, saving a copy per
 * message; a view into a larger one is copied, so the rest of it is not kept alive.
 */
function own(bytes: Uint8Array): Uint8Array {
  return bytes.buffer.byteLength <= bytes.byteLength + 512 ? bytes : bytes.slice();
}

/** The bytes a kept payload holds on to. */
const held = (bytes: Uint8Array | null) => bytes?.buffer.byteLength ?? 0;

export interface TreeStats {
  topics: number;
  messages: number;
  kept: number;
  bytes: number;
  /** Messages dropped from histories (per-topic or total bound). */
  dropped: number;
  /** Payloads over 1 MB (counted, not kept). */
  tooLarge: number;
  /** Messages whose topic was past the node bound. */
  untracked: number;
}

export class TopicTree {
  root: TopicNode;
  nodes = 1;
  stats: TreeStats = { topics: 0, messages: 0, kept: 0, bytes: 0, dropped: 0, tooLarge: 0, untracked: 0 };
  /** Kept messages in arrival order with their topic (the total bound drops from the front). */
  private queue: TopicMessage[] = [];
  private owners: TopicNode[] = [];
  private head = 0;
  private times: number[];
  private tick = 0;
  /** Every topic's node, by topic. */
  private leaves = new Map<string, TopicNode>();

  constructor(readonly limits = { history: HISTORY_PER_TOPIC, kept: MAX_KEPT, bytes: MAX_BYTES, nodes: MAX_NODES, window: RATE_WINDOW }, now = Date.now()) {
    this.root = newNode('', '', 0, limits.window);
    this.times = new Array(limits.window).fill(now);
  }

  /** Counts a message on its topic and every level above, and keeps it in the topic's history. */
  add(message: { topic: string; qos: 0 | 1 | 2; retain: boolean; time: number; payload: Uint8Array; props?: [string, string][] }): TopicMessage {
    const size = message.payload.length;
    const tooLarge = size > PAYLOAD_VIEW_LIMIT;
    const kept: TopicMessage = {
      id: nextId++, topic: message.topic, qos: message.qos, retain: message.retain, time: message.time, size,
      payload: tooLarge ? null : own(message.payload), props: message.props,
    };
    this.stats.messages += 1;
    if (tooLarge) this.stats.tooLarge += 1;
    // A known topic is one lookup and a walk up its parents; the levels are split once per topic.
    const node = this.leaves.get(message.topic) ?? this.grow(message.topic);
    for (let up: TopicNode | undefined = node; up; up = up.parent) {
      up.count += 1;
      up.last = kept;
    }
    if (node.path !== message.topic) {
      this.stats.untracked += 1;
      return kept;
    }
    if (!node.isTopic) this.stats.topics += 1;
    node.isTopic = true;
    // A retained message with an empty payload deletes the retained one [MQTT-3.3.1-10].
    if (message.retain) node.retained = size > 0;
    this.keep(node, kept);
    return kept;
  }

  /** Adds the levels of `topic` not seen yet; past the node bound, the deepest known level. */
  private grow(topic: string): TopicNode {
    const levels = topic.split('/');
    let node = this.root;
    for (let i = 0; i < levels.length; i++) {
      let child = node.children.get(levels[i]);
      if (!child) {
        if (this.nodes >= this.limits.nodes) return node;
        child = newNode(levels[i], i === 0 ? levels[0] : `${node.path}/${levels[i]}`, i + 1, this.limits.window, node);
        node.children.set(levels[i], child);
        this.nodes += 1;
      }
      node = child;
    }
    this.leaves.set(topic, node);
    return node;
  }

  private keep(node: TopicNode, message: TopicMessage) {
    node.history.push(message);
    this.queue.push(message);
    this.owners.push(node);
    this.stats.kept += 1;
    this.stats.bytes += held(message.payload);
    if (node.history.length > this.limits.history) this.dropFrom(node);
    while ((this.stats.kept > this.limits.kept || (this.stats.bytes > this.limits.bytes && this.stats.kept > 1)) && this.dropOldest());
    // Entries dropped by their topic stay in the queue until it is compacted (amortised O(1)).
    if (this.queue.length > 2 * this.stats.kept + 2048) {
      const live = (m: TopicMessage, i: number) => this.owners[i].history.length > 0 && m.id >= this.owners[i].history[0].id;
      const keep = this.queue.map(live);
      this.queue = this.queue.filter((_, i) => i >= this.head && keep[i]);
      this.owners = this.owners.filter((_, i) => i >= this.head && keep[i]);
      this.head = 0;
    }
  }

  private dropFrom(node: TopicNode) {
    const gone = node.history.shift()!;
    node.dropped += 1;
    this.stats.kept -= 1;
    this.stats.bytes -= held(gone.payload);
    this.stats.dropped += 1;
    // The queue (and an ancestor's `last`) may still point at it: only its bytes are let go.
    gone.payload = null;
  }

  private dropOldest(): boolean {
    while (this.head < this.queue.length) {
      const message = this.queue[this.head];
      const node = this.owners[this.head++];
      // The globally oldest kept message is always its topic's oldest.
      if (node.history[0] === message) return (this.dropFrom(node), true);
    }
    return false;
  }

  /** Takes a rate sample of every node (once a second): rate = messages since the oldest sample / its age. */
  sample(now: number) {
    const slot = this.tick % this.limits.window;
    const since = this.times[slot];
    const seconds = (now - since) / 1000;
    const visit = (node: TopicNode) => {
      node.rate = seconds > 0 ? (node.count - node.samples[slot]) / seconds : 0;
      node.samples[slot] = node.count;
      for (const child of node.children.values()) visit(child);
    };
    visit(this.root);
    this.times[slot] = now;
    this.tick += 1;
  }

  /** The node of `topic`, if seen. */
  find(topic: string): TopicNode | undefined {
    let node: TopicNode | undefined = this.root;
    for (const level of topic.split('/')) {
      node = node.children.get(level);
      if (!node) return undefined;
    }
    return node;
  }
}

export interface Row {
  node: TopicNode;
  open: boolean;
}

const ORDER: Record<Sort, (a: TopicNode, b: TopicNode) => number> = {
  name: (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  rate: (a, b) => b.rate - a.rate || ORDER.name(a, b),
  last: (a, b) => (b.last?.time ?? 0) - (a.last?.time ?? 0) || ORDER.name(a, b),
};

/** Whether `search` is an MQTT filter (has a wildcard) rather than a substring. */
export const isFilter = (search: string) => /(^|\/)[+#](\/|$)/.test(search);

/**
 * The rows to show, depth first in `sort` order: children of expanded nodes, or, with a search
 * (a substring, or an MQTT filter when it has wildcards), every node on the way to a matching topic.
 */
export function visibleRows(tree: TopicTree, expanded: ReadonlySet<string>, sort: Sort, search = ''): Row[] {
  const rows: Row[] = [];
  const order = ORDER[sort];
  const wanted = search.trim();
  if (!wanted) {
    const walk = (node: TopicNode) => {
      for (const child of [...node.children.values()].sort(order)) {
        const open = child.children.size > 0 && expanded.has(child.path);
        rows.push({ node: child, open });
        if (open) walk(child);
      }
    };
    walk(tree.root);
    return rows;
  }
  const filter = isFilter(wanted);
  const lower = wanted.toLowerCase();
  const matches = (node: TopicNode) => node.isTopic && (filter ? topicMatches(wanted, node.path) : node.path.toLowerCase().includes(lower));
  // Returns the rows of the subtree, or null when nothing in it matches.
  const walk = (node: TopicNode): Row[] | null => {
    const inner: Row[] = [];
    for (const child of [...node.children.values()].sort(order)) {
      const below = child.children.size > 0 ? walk(child) : null;
      if (!below && !matches(child)) continue;
      inner.push({ node: child, open: Boolean(below) });
      for (const row of below ?? []) inner.push(row);
    }
    return inner.length ? inner : null;
  };
  return walk(tree.root) ?? rows;
}
