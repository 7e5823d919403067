// MQTT topic rules shared by the REST handlers and the store: validity of topic names and
// filters (security.md S9, MQTT 3.1.1 §4.7), wildcard matching, and the parts of a shared
// subscription. Pure functions; nothing here knows about clients or nodes.

/** The longest topic name or filter, in bytes [MQTT-4.7.3-3]. */
export const MAX_TOPIC_BYTES = 65535;

/**
 * Why EMQX refuses a topic (emqx_topic.erl validate/2, v5.5.1), named after the error it raises
 * (`topic_invalid_utf8` stands for the match failure it gets on ill-formed UTF-8).
 */
export type TopicError = 'empty_topic' | 'topic_too_long' | 'topic_invalid_char' | 'topic_invalid_#' | 'topic_name_error' | 'topic_invalid_utf8';

/** The checks names and filters share: not empty, at most 65535 bytes, no NUL, well-formed. */
function commonError(topic: string): TopicError | null {
  // [MQTT-4.7.3-1]
  if (topic.length === 0) return 'empty_topic';
  // A UTF-16 unit takes at most 3 bytes in UTF-8, so shorter strings need no byte count.
  if (topic.length > MAX_TOPIC_BYTES / 3 && Buffer.byteLength(topic) > MAX_TOPIC_BYTES) return 'topic_too_long';
  // [MQTT-4.7.3-2]
  if (topic.indexOf('\u0000') >= 0) return 'topic_invalid_char';
  // [MQTT-1.5.3-1] a lone surrogate has no UTF-8 form.
  if (!(topic as unknown as { isWellFormed(): boolean }).isWellFormed()) return 'topic_invalid_utf8';
  return null;
}

/**
 * Why a topic name cannot be published to, or null when it can (this runs for every PUBLISH: two
 * scans in the common case). Example: `topicNameError('a/+') === 'topic_name_error'`.
 */
export function topicNameError(topic: string): TopicError | null {
  // A name with wildcards fails as a filter would, or else for being a wildcard filter.
  if (topic.indexOf('+') >= 0 || topic.indexOf('#') >= 0) return topicFilterError(topic) ?? 'topic_name_error';
  return commonError(topic);
}

/**
 * Why a topic filter cannot be subscribed to, or null when it can [MQTT-4.7.1]: `#` only as the
 * whole last level, `+` only as a whole level; empty levels are fine. Shared filters are judged
 * as a whole (prefix included) here; `topicFilterProblem` also checks their parts. Example:
 * `topicFilterError('a/#/b') === 'topic_invalid_#'`, `topicFilterError('a+') === 'topic_invalid_char'`.
 */
export function topicFilterError(filter: string): TopicError | null {
  const common = commonError(filter);
  if (common) return common;
  let from = 0;
  for (;;) {
    const end = filter.indexOf('/', from);
    const stop = end < 0 ? filter.length : end;
    const single = stop - from === 1 ? filter.charCodeAt(from) : -1;
    if (single === 0x23 /* # */) {
      if (end >= 0) return 'topic_invalid_#';
    } else if (single !== 0x2b /* + */) {
      for (let i = from; i < stop; i++) {
        const c = filter.charCodeAt(i);
        if (c === 0x23 || c === 0x2b) return 'topic_invalid_char';
      }
    }
    if (end < 0) return null;
    from = end + 1;
  }
}

/** True when a filter starts with a wildcard, so matches no topic starting with `$` [MQTT-4.7.2-1]. */
export function startsWithWildcard(filter: string): boolean {
  const c = filter.charCodeAt(0);
  return c === 0x23 || c === 0x2b;
}

/** True for `$share/<group>/<filter>` and `$queue/<filter>`. */
export function isSharedFilter(filter: string): boolean {
  return filter.startsWith('$share/') || filter.startsWith('$queue/');
}

const PROBLEMS: Record<TopicError, string> = {
  empty_topic: 'empty',
  topic_too_long: 'longer than 65535 bytes',
  topic_invalid_char: 'contains NUL',
  'topic_invalid_#': "'#' must be the last level and alone",
  topic_name_error: 'contains a wildcard',
  topic_invalid_utf8: 'not valid UTF-8',
};

/** Why a string is not a valid topic name to publish to, in words, or null when it is [MQTT-3.3.2-2]. */
export function topicNameProblem(topic: string): string | null {
  const error = topicNameError(topic);
  return error && (error === 'topic_invalid_char' && topic.indexOf('\u0000') < 0 ? PROBLEMS.topic_name_error : PROBLEMS[error]);
}

/** Why a string is not a valid topic filter, in words, or null when it is (MQTT 3.1.1 §4.7.1). */
export function topicFilterProblem(filter: string): string | null {
  const error = topicFilterError(filter);
  if (error) return error === 'topic_invalid_char' && filter.indexOf('\u0000') < 0 ? "'+' must fill a whole level" : PROBLEMS[error];
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

/**
 * The topics two filters (or topic names) both cover, as one filter, or null when they share none
 * (emqx_topic:intersection/2 at e5.8.9; `$` topics never meet a leading wildcard).
 */
export function topicIntersection(a: string, b: string): string | null {
  const wild = (w: string) => w === '+' || w === '#';
  const w1 = a.split('/');
  const w2 = b.split('/');
  if ((w1[0].startsWith('$') && wild(w2[0])) || (w2[0].startsWith('$') && wild(w1[0]))) return null;
  const meet = (x: string[], y: string[]): string[] | null => {
    if (y.length === 1 && y[0] === '#') return x;
    if (x.length === 1 && x[0] === '#') return y;
    if (x.length === 1 && y.length === 1 && y[0] === '+') return x;
    if (x.length === 1 && y.length === 1 && x[0] === '+') return y;
    if (x.length === 0 && y.length === 0) return [];
    if (x.length === 0 || y.length === 0) return null;
    const [h1, ...t1] = x;
    const [h2, ...t2] = y;
    let head: string;
    if (wild(h1) && wild(h2)) head = h1 === h2 ? h1 : '+';
    else if (h1 === h2) head = h1;
    else if (wild(h1)) head = h2;
    else if (wild(h2)) head = h1;
    else return null;
    const rest = meet(t1, t2);
    return rest === null ? null : [head, ...rest];
  };
  const words = meet(w1, w2);
  return words === null ? null : words.join('/');
}

/** Whether every topic `a` covers is covered by `b` (emqx_topic:is_subset/2). */
export function topicIsSubset(a: string, b: string): boolean {
  return a === b || topicIntersection(a, b) === a;
}
