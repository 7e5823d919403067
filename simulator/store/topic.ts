// MQTT topic rules shared by the REST handlers and the store: validity of topic names and
// filters (security.md S9, MQTT 3.1.1 §4.7), wildcard matching, and the parts of a shared
// subscription. Pure functions; nothing here knows about clients or nodes.

const MAX_TOPIC_BYTES = 65535;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function basicProblem(topic: string): string | null {
  if (topic.length === 0) return 'empty';
  // [MQTT-4.7.3-2] no NUL; [MQTT-1.5.3-1] well-formed UTF-8 (lone surrogates cannot be encoded).
  if (topic.includes('\u0000')) return 'contains NUL';
  if (LONE_SURROGATE.test(topic)) return 'not valid UTF-8';
  if (Buffer.byteLength(topic) > MAX_TOPIC_BYTES) return 'longer than 65535 bytes';
  return null;
}

/** Why a string is not a valid topic name to publish to, or null when it is [MQTT-3.3.2-2]. */
export function topicNameProblem(topic: string): string | null {
  const basic = basicProblem(topic);
  if (basic) return basic;
  if (topic.includes('+') || topic.includes('#')) return 'contains a wildcard';
  return null;
}

/** Why a string is not a valid topic filter, or null when it is (MQTT 3.1.1 §4.7.1). */
export function topicFilterProblem(filter: string): string | null {
  const basic = basicProblem(filter);
  if (basic) return basic;
  const levels = filter.split('/');
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i];
    // [MQTT-4.7.1-2] '#' alone in the last level; [MQTT-4.7.1-3] '+' fills a whole level.
    if (level.includes('#') && (level !== '#' || i !== levels.length - 1)) return "'#' must be the last level and alone";
    if (level.includes('+') && level !== '+') return "'+' must fill a whole level";
  }
  const share = parseShare(filter);
  if (share && (!share.group || share.group.includes('+') || share.group.includes('#') || !share.topic)) return 'bad shared subscription';
  return null;
}

export interface SharedFilter {
  group: string;
  /** The filter without the `$share/<group>/` prefix. */
  topic: string;
}

/** Splits `$share/<group>/<filter>` (and EMQX's `$queue/<filter>`); null for ordinary filters. */
export function parseShare(filter: string): SharedFilter | null {
  if (filter.startsWith('$queue/')) return { group: '$queue', topic: filter.slice(7) };
  if (!filter.startsWith('$share/')) return null;
  const rest = filter.slice(7);
  const slash = rest.indexOf('/');
  if (slash < 0) return { group: rest, topic: '' };
  return { group: rest.slice(0, slash), topic: rest.slice(slash + 1) };
}

/** The topic a subscription routes on: shared subscriptions route on the filter after the group. */
export function routeTopic(filter: string): string {
  return parseShare(filter)?.topic ?? filter;
}

/**
 * True when `filter` matches `topic`. Wildcard characters in `topic` are taken literally, so a
 * filter can also be tested against another filter (EMQX's `match_topic` query does that).
 * [MQTT-4.7.2-1] a filter starting with a wildcard does not match topics starting with `$`.
 */
export function topicMatches(filter: string, topic: string): boolean {
  if (topic.startsWith('$') && (filter.startsWith('+') || filter.startsWith('#'))) return false;
  // Level by level without splitting (this runs for every message of several hooks): `f` and
  // `t` are where the current levels start; `t` is -1 once the topic has no level left.
  let f = 0;
  let t = 0;
  for (;;) {
    const fEnd = filter.indexOf('/', f);
    const fStop = fEnd < 0 ? filter.length : fEnd;
    const single = fStop - f === 1 ? filter.charCodeAt(f) : -1;
    if (single === 0x23 /* # */) return true;
    if (t < 0) return false;
    const tEnd = topic.indexOf('/', t);
    const tStop = tEnd < 0 ? topic.length : tEnd;
    if (single !== 0x2b /* + */ && !sameLevel(filter, f, fStop, topic, t, tStop)) return false;
    if (fEnd < 0) return tEnd < 0;
    f = fEnd + 1;
    t = tEnd < 0 ? -1 : tEnd + 1;
  }
}

function sameLevel(a: string, aFrom: number, aTo: number, b: string, bFrom: number, bTo: number): boolean {
  if (aTo - aFrom !== bTo - bFrom) return false;
  for (let i = 0; i < aTo - aFrom; i++) if (a.charCodeAt(aFrom + i) !== b.charCodeAt(bFrom + i)) return false;
  return true;
}

interface TrieNode {
  children: Map<string, TrieNode>;
  /** Filters ending here, with how many subscriptions hold them. */
  refs: number;
}

function trieNode(): TrieNode {
  return { children: new Map(), refs: 0 };
}

/**
 * Reference-counted topic filters with a fast "does anything match this topic?" test, used on
 * every publish to count messages nobody subscribed to. Example:
 * `index.add('a/+'); index.hasMatch('a/b') === true`.
 */
export class FilterIndex {
  private readonly root = trieNode();
  // The last answer of hasMatch, valid until a filter is added or removed (publishers mostly send
  // to the same topic again).
  private lastTopic: string | null = null;
  private lastAnswer = false;

  add(filter: string): void {
    this.lastTopic = null;
    let node = this.root;
    for (const level of filter.split('/')) {
      let next = node.children.get(level);
      if (!next) {
        next = trieNode();
        node.children.set(level, next);
      }
      node = next;
    }
    node.refs++;
  }

  remove(filter: string): void {
    this.lastTopic = null;
    const path: TrieNode[] = [this.root];
    const levels = filter.split('/');
    for (const level of levels) {
      const next = path[path.length - 1].children.get(level);
      if (!next) return;
      path.push(next);
    }
    const leaf = path[path.length - 1];
    if (leaf.refs > 0) leaf.refs--;
    // Prune empty branches so the trie does not grow with every filter ever seen.
    for (let i = levels.length; i > 0; i--) {
      const node = path[i];
      if (node.refs > 0 || node.children.size > 0) break;
      path[i - 1].children.delete(levels[i - 1]);
    }
  }

  /** Number of trie nodes below the root (0 when no filter is held), for leak checks. */
  get nodeCount(): number {
    let count = 0;
    const stack = [this.root];
    for (let node = stack.pop(); node; node = stack.pop()) {
      count += node.children.size;
      for (const child of node.children.values()) stack.push(child);
    }
    return count;
  }

  /** True when at least one held filter matches the topic name. */
  hasMatch(topic: string): boolean {
    if (topic === this.lastTopic) return this.lastAnswer;
    const levels = topic.split('/');
    this.lastAnswer = this.search(this.root, levels, 0, topic.startsWith('$'));
    this.lastTopic = topic;
    return this.lastAnswer;
  }

  private search(node: TrieNode, levels: readonly string[], i: number, dollar: boolean): boolean {
    // '#' also matches the parent level ("sport/#" matches "sport") [MQTT-4.7.1-2].
    const hash = node.children.get('#');
    if (hash && hash.refs > 0 && !(dollar && i === 0)) return true;
    if (i === levels.length) return node.refs > 0;
    const exact = node.children.get(levels[i]);
    if (exact && this.search(exact, levels, i + 1, dollar)) return true;
    const plus = node.children.get('+');
    return !!plus && !(dollar && i === 0) && this.search(plus, levels, i + 1, dollar);
  }
}
