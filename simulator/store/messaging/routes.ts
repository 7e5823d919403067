// The cluster's route table (emqx_router): which node has subscribers for which topic filter.
// Every node's subscriptions add to it, so `topics.count` and GET /topics are cluster-wide as in
// EMQX, where the table is replicated to every node. Shared subscriptions route on the filter
// after `$share/<group>/`.
import { routeTopic } from '../../lib/topic.ts';

export interface Route {
  topic: string;
  node: string;
}

export class RouteTable {
  /** Route topic → node → number of subscriptions holding it. */
  private readonly byTopic = new Map<string, Map<string, number>>();
  private pairs = 0;
  private readonly listeners: ((op: 'add' | 'delete', topic: string, node: string) => void)[] = [];

  /** Calls `fn` when a (topic, node) route appears or goes (cluster linking syncs them). */
  onChange(fn: (op: 'add' | 'delete', topic: string, node: string) => void): void {
    this.listeners.push(fn);
  }

  /** Adds one subscription's route. */
  add(filter: string, node: string): void {
    const topic = routeTopic(filter);
    let nodes = this.byTopic.get(topic);
    if (!nodes) {
      nodes = new Map();
      this.byTopic.set(topic, nodes);
    }
    const refs = nodes.get(node) ?? 0;
    nodes.set(node, refs + 1);
    if (refs === 0) {
      this.pairs++;
      for (const fn of this.listeners) fn('add', topic, node);
    }
  }

  /** Removes one subscription's route; the route goes when its last subscription does. */
  remove(filter: string, node: string): void {
    const topic = routeTopic(filter);
    const nodes = this.byTopic.get(topic);
    const refs = nodes?.get(node);
    if (!nodes || !refs) return;
    if (refs > 1) {
      nodes.set(node, refs - 1);
      return;
    }
    nodes.delete(node);
    this.pairs--;
    if (nodes.size === 0) this.byTopic.delete(topic);
    for (const fn of this.listeners) fn('delete', topic, node);
  }

  /** Number of distinct route topics (the `topics.count` stat). */
  get topicCount(): number {
    return this.byTopic.size;
  }

  /** Number of (topic, node) routes. */
  get size(): number {
    return this.pairs;
  }

  /** Every route, topic by topic in the order topics first appeared. */
  *all(): Iterable<Route> {
    for (const [topic, nodes] of this.byTopic) {
      for (const node of nodes.keys()) yield { topic, node };
    }
  }

  /** The routes of one topic (empty when nobody subscribes to it). */
  of(topic: string): Route[] {
    return [...(this.byTopic.get(topic)?.keys() ?? [])].map((node) => ({ topic, node }));
  }
}
