// Managed namespaces (emqx_mt at 6.2.2) and the objects that belong to one. A rule, connector,
// action or source created with `?ns=<name>` lives in that namespace's own config
// (emqx_rule_engine_config:create_or_update_rule/3, emqx_connector:create/4 with a namespace):
// the same id may exist in the global config and in any namespace, and each namespace's objects
// are only seen through `?ns=<name>`. The global objects keep their place in the state; a
// namespace's are kept beside them under `state.namespaces[<name>]`, and each namespace gets its
// own rules, connectors, actions and sources over that part of the state.
//
// emqx_mt_state.erl at 6.2.2: create_managed_ns_txn/1 refuses a second namespace of the same name
// (`already_exists`) and a 1001st (`table_is_full`, ?MAX_NUM_TNS_CONFIGS); delete_ns_txn/1 removes
// it (deleting an unknown one is `ok`) and emqx_mt_config_janitor clean_namespace/1 removes its
// objects. The console reads the list from `GET /mt/managed_ns_list` (names, ascending).
import { apiError } from '../plugins/errors.ts';
import { SELF_NODE } from './cluster/cluster.ts';
import type { StoreContext } from './context.ts';
import { Channels } from './integration/actions.ts';
import { Connectors } from './integration/connectors.ts';
import { Rules } from './integration/rules.ts';
import type { PersistedState } from './state.ts';

/** What one namespace holds (and what the global config holds beside its other roots). */
export interface NamespaceScope {
  rules: Rules;
  connectors: Connectors;
  actions: Channels;
  sources: Channels;
}

/** One managed namespace in the state: when it was made, and its objects. */
export interface NamespaceState extends Pick<PersistedState, 'rules' | 'rule_engine' | 'connectors' | 'actions' | 'sources' | 'authn_users'> {
  created_at: number;
}

/** emqx_mt.hrl at 6.2.2: ?MAX_NUM_TNS_CONFIGS. */
export const MAX_MANAGED_NAMESPACES = 1000;

export class Namespaces {
  private readonly scopes = new Map<string, NamespaceScope>();

  constructor(
    private readonly ctx: StoreContext,
    readonly global: NamespaceScope,
    private readonly nodes: () => string[],
  ) {
    ctx.onStateReplaced(() => this.scopes.clear());
  }

  private get table(): Record<string, NamespaceState> {
    return this.ctx.state.namespaces ?? {};
  }

  /** The managed namespaces' names, ascending (emqx_mt_state list_managed_ns/2 walks the table in order). */
  list(): string[] {
    return Object.keys(this.table).sort();
  }

  has(name: string): boolean {
    return Object.hasOwn(this.table, name);
  }

  async create(name: string): Promise<void> {
    if (this.has(name)) throw apiError(400, 'BAD_REQUEST', 'already_exists');
    if (this.list().length >= MAX_MANAGED_NAMESPACES) throw apiError(400, 'BAD_REQUEST', 'Maximum number of managed namespaces reached');
    this.ctx.state.namespaces = { ...this.table, [name]: { created_at: this.ctx.clock.now() } };
    await this.ctx.persist();
  }

  async remove(name: string): Promise<void> {
    if (!this.has(name)) return;
    const { [name]: _gone, ...rest } = this.table;
    this.ctx.state.namespaces = rest;
    this.scopes.delete(name);
    await this.ctx.persist();
  }

  /** The objects of a namespace, or the global ones for `null`. */
  scope(name: string | null): NamespaceScope {
    if (name === null) return this.global;
    let scope = this.scopes.get(name);
    if (!scope) {
      scope = this.build(name);
      this.scopes.set(name, scope);
    }
    return scope;
  }

  /** Every scope with its namespace, the global one first (a list without `ns`, as a global user sees it). */
  all(): [string | null, NamespaceScope][] {
    return [[null, this.global], ...this.list().map((name): [string, NamespaceScope] => [name, this.scope(name)])];
  }

  private build(name: string): NamespaceScope {
    const parent = this.ctx;
    const table = () => this.table;
    // The namespace's part of the state; a write goes to the parent's file with everything else.
    const ctx: StoreContext = {
      clock: parent.clock,
      profile: parent.profile,
      get state() {
        return (table()[name] ?? { created_at: 0 }) as unknown as PersistedState;
      },
      persist: () => parent.persist(),
      // A replaced state drops every namespace's modules (see the constructor), so theirs need no rebuild.
      onStateReplaced: () => {},
      stateReplaced: () => parent.stateReplaced(),
    };
    const rules = new Rules(ctx, this.nodes, SELF_NODE);
    const connectors = new Connectors(ctx, this.nodes);
    const actions = new Channels(ctx, 'actions', connectors, rules, this.nodes);
    const sources = new Channels(ctx, 'sources', connectors, rules, this.nodes);
    connectors.channels = [actions, sources];
    return { rules, connectors, actions, sources };
  }
}
