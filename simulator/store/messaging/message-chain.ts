// What schema validation and message transformation share (emqx_schema_validation_config and
// emqx_message_transformation_config, with their registries, at e5.8.9): an ordered list of named
// entries, persisted, each with topic filters; appended, replaced in place, deleted, reordered as a
// whole, enabled and disabled; the enabled ones whose filters match a topic in list order; and
// per-entry counters (matched, succeeded, failed, the matched rate). It does not know what an entry
// does to a message: the two modules built on it do.
import { apiError } from '../../plugins/errors.ts';
import { topicMatches } from '../../lib/topic.ts';
import type { StoreContext } from '../context.ts';
import type { PersistedState } from '../state.ts';
import { Meter } from './topic-metrics.ts';

/** The fields every entry has. */
export interface ChainEntry {
  name: string;
  enable: boolean;
  topics: string[];
}

export type ChainCounter = 'matched' | 'succeeded' | 'failed';

/** Why a reorder was refused, as the 400 body lists it beside code and message. */
export interface ReorderProblem {
  not_found: string[];
  duplicated: string[];
  not_reordered: string[];
}

interface Counters {
  matched: Meter;
  /** The matched rate over five minutes (`rate_last5m`). */
  matched5m: Meter;
  succeeded: number;
  failed: number;
  /** The highest matched rate seen (`rate_max`). */
  max: number;
}

/** One node's counters as the metrics endpoints answer them (format_metrics/2). */
export interface ChainMetrics {
  matched: number;
  succeeded: number;
  failed: number;
  rate: number;
  rate_last5m: number;
  rate_max: number;
}

const round = (n: number) => Math.round(n * 100) / 100;

function counters(): Counters {
  return { matched: new Meter(), matched5m: new Meter(300), succeeded: 0, failed: 0, max: 0 };
}

// Erlang's ~0p of a list of binaries, as readable_error_msg prints the names of a reorder error.
const binaries = (names: string[]) => `[${names.map((n) => `<<${JSON.stringify(n)}>>`).join(',')}]`;

export class MessageChain<T extends ChainEntry> {
  /** Live counters by name; made on insert and update (maybe_create_metrics resets them). */
  private readonly live = new Map<string, Counters>();

  constructor(
    protected readonly ctx: StoreContext,
    private readonly key: 'schema_validations' | 'message_transformations',
    /** `Validation` or `Transformation`, as the API's messages say. */
    private readonly noun: string,
    private readonly nodes: () => string[],
    private readonly self: string,
  ) {
    ctx.onStateReplaced(() => this.live.clear());
  }

  list(): T[] {
    return ((this.ctx.state as PersistedState)[this.key] ?? []) as unknown as T[];
  }

  private set entries(next: T[]) {
    (this.ctx.state as unknown as Record<string, unknown>)[this.key] = next;
  }

  find(name: string): T | undefined {
    return this.list().find((e) => e.name === name);
  }

  /** The entry, or 404 `<noun> not found`. */
  get(name: string): T {
    const found = this.find(name);
    if (!found) throw apiError(404, 'NOT_FOUND', `${this.noun} not found`);
    return found;
  }

  /** Enabled entries with a filter matching `topic`, in list order (the registry's topic index). */
  matching(topic: string): T[] {
    const all = this.list();
    if (all.length === 0) return all;
    return all.filter((e) => e.enable && e.topics.some((filter) => topicMatches(filter, topic)));
  }

  /** Whether any entry is enabled, so the broker step can skip its work. */
  get active(): boolean {
    return this.list().some((e) => e.enable);
  }

  /** POST: appends; a taken name is 400 ALREADY_EXISTS. */
  async insert(entry: T): Promise<T> {
    if (this.find(entry.name)) throw apiError(400, 'ALREADY_EXISTS', `${this.noun} already exists`);
    this.entries = [...this.list(), entry];
    this.live.set(entry.name, counters());
    await this.ctx.persist();
    return entry;
  }

  /** PUT: replaces the entry of that name in its place (its counters start again). */
  async update(entry: T): Promise<T> {
    this.get(entry.name);
    this.entries = this.list().map((e) => (e.name === entry.name ? entry : e));
    this.live.set(entry.name, counters());
    await this.ctx.persist();
    return entry;
  }

  async remove(name: string): Promise<void> {
    this.get(name);
    this.entries = this.list().filter((e) => e.name !== name);
    this.live.delete(name);
    await this.ctx.persist();
  }

  /** POST …/enable/{enable}: an update with only `enable` changed. */
  async setEnable(name: string, enable: boolean): Promise<void> {
    await this.update({ ...this.get(name), enable });
  }

  /**
   * POST …/reorder: the order must name every entry once. Otherwise nothing changes and the
   * answer is the names not found, duplicated and not named (the config handler's reorder/3).
   */
  async reorder(order: string[]): Promise<ReorderProblem | null> {
    const byName = new Map(this.list().map((e) => [e.name, e]));
    const seen = new Set<string>();
    const notFound = new Set<string>();
    const duplicated = new Set<string>();
    for (const name of order) {
      if (!byName.has(name)) notFound.add(name);
      else if (seen.has(name)) duplicated.add(name);
      seen.add(name);
    }
    const notReordered = [...byName.keys()].filter((name) => !seen.has(name));
    if (notFound.size || duplicated.size || notReordered.length) {
      return { not_found: [...notFound], duplicated: [...duplicated], not_reordered: notReordered };
    }
    this.entries = order.map((name) => byName.get(name) as T);
    await this.ctx.persist();
    return null;
  }

  /** Counts one outcome of an entry on this node. */
  count(name: string, counter: ChainCounter): void {
    let c = this.live.get(name);
    if (!c) {
      c = counters();
      this.live.set(name, c);
    }
    if (counter === 'matched') {
      const now = this.ctx.clock.now();
      c.matched.mark(now);
      c.matched5m.mark(now);
      c.max = Math.max(c.max, c.matched.rateAt(now));
    } else {
      c[counter]++;
    }
  }

  /** This node's counters of an entry (zero for one never counted). */
  nodeMetrics(name: string): ChainMetrics {
    const c = this.live.get(name);
    if (!c) return { matched: 0, succeeded: 0, failed: 0, rate: 0, rate_last5m: 0, rate_max: 0 };
    const now = this.ctx.clock.now();
    return {
      matched: c.matched.count, succeeded: c.succeeded, failed: c.failed,
      rate: round(c.matched.rateAt(now)), rate_last5m: round(c.matched5m.rateAt(now)), rate_max: round(c.max),
    };
  }

  /** GET …/metrics: every node's counters (only this node sees traffic) and their sums. */
  metrics(name: string): { metrics: ChainMetrics; node_metrics: { node: string; metrics: ChainMetrics }[] } {
    this.get(name);
    const own = this.nodeMetrics(name);
    const zero = { matched: 0, succeeded: 0, failed: 0, rate: 0, rate_last5m: 0, rate_max: 0 };
    const node_metrics = this.nodes().map((node) => ({ node, metrics: node === this.self ? own : { ...zero } }));
    return { metrics: { ...own }, node_metrics };
  }

  /** POST …/metrics/reset. */
  resetMetrics(name: string): void {
    this.get(name);
    this.live.set(name, counters());
  }

  /** The text readable_error_msg gives a config handler failure (`{post_config_update, Module, Reason}`). */
  protected static handlerFailure(module: string, reason: string): string {
    return `{post_config_update,${module},${reason}}`;
  }

  /** `[<<"a">>,<<"b">>]`, as Erlang prints a list of names. */
  protected static binaries(names: string[]): string {
    return binaries(names);
  }
}
