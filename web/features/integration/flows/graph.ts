/**
 * A flow is a rule drawn as a graph (emqx-api-part2 §6): FROM entries are source nodes, the
 * SELECT field list one function node, WHERE one filter node and the rule's actions sink nodes.
 * This module turns a rule into such a graph (with the fixed layout), a graph back into the rule
 * body, and checks a graph before it is saved. No DOM here; the canvas only draws what it gets.
 */
import type { RuleAction } from '../rules/rules.tsx';
import './messages.ts';

export type SourceKind = 'topic' | 'event' | 'bridge';
export type SinkKind = 'console' | 'republish' | 'action';
export type Kind = SourceKind | 'function' | 'filter' | SinkKind;

export interface Field {
  expr: string;
  alias: string;
}

export interface FlowNode {
  id: string;
  kind: Kind;
  x: number;
  y: number;
  /** topic filter, `$events/...`, `$bridges/<type>:<name>`, WHERE condition or action id `type:name`. */
  value?: string;
  /** The function node's SELECT fields. */
  fields?: Field[];
  /** The republish node's arguments. */
  args?: Record<string, unknown>;
}

export interface Edge {
  from: string;
  to: string;
}

export interface Graph {
  nodes: FlowNode[];
  edges: Edge[];
}

export interface FlowRule {
  id: string;
  description: string;
  sql: string;
  actions: RuleAction[];
  enable: boolean;
}

export const SOURCE_KINDS: readonly Kind[] = ['topic', 'event', 'bridge'];
export const SINK_KINDS: readonly Kind[] = ['console', 'republish', 'action'];
export const isSource = (k: Kind) => SOURCE_KINDS.includes(k);
export const isSink = (k: Kind) => SINK_KINDS.includes(k);

// Layout of the notes: 4 columns (sources, function, filter, sinks), node 200×60, gaps 100 and 30.
export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 60;
export const MARGIN = 20;
// 60 px between columns, not the broker's dashboard's 100 (emqx-api-part2.md on the flow layout):
// four columns then open at about 85 % in a 1280 px wide window, not 73 %.
const COLUMN_STEP = NODE_WIDTH + 60;
const ROW_STEP = NODE_HEIGHT + 30;

export const columnOf = (k: Kind) => (isSource(k) ? 0 : k === 'function' ? 1 : k === 'filter' ? 2 : 3);
export const position = (column: number, row: number) => ({ x: MARGIN + column * COLUMN_STEP, y: MARGIN + row * ROW_STEP });

/** The place for a new node of `kind`: below the nodes already in its column. */
export function nextPosition(graph: Graph, kind: Kind) {
  const column = columnOf(kind);
  const taken = graph.nodes.filter((n) => columnOf(n.kind) === column);
  const row = taken.length ? Math.max(...taken.map((n) => Math.round((n.y - MARGIN) / ROW_STEP))) + 1 : 0;
  return position(column, row);
}

/** The id of a bridge source node: `<type>-<id>` for `$bridges/<type>:<name>`. */
const bridgeNodeId = (entry: string) => {
  const id = entry.replace(/^\$(bridges|sources)\//, '');
  return `${id.split(':')[0]}-${id}`;
};

/** Node id for a derived node (the notes' naming), made unique within `taken`. */
function nodeId(base: string, taken: Set<string>) {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

// ---- SQL text ------------------------------------------------------------------------------

/**
 * Where `at` matches at the top level of `text` (outside quotes, parentheses and brackets), and
 * after a blank unless `afterBlank` is false; `at(rest)` returns the length of the match at the
 * start of `rest`, or 0.
 */
function scan(text: string, at: (rest: string) => number, afterBlank = true): number[] {
  const hits: number[] = [];
  let depth = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (depth === 0) {
      const length = at(text.slice(i));
      if (length > 0 && (!afterBlank || i === 0 || /\s/.test(text[i - 1]))) {
        hits.push(i);
        i += length - 1;
      }
    }
  }
  return hits;
}

const keyword = (word: string) => (rest: string) => (new RegExp(`^${word}(?=\\s|$)`, 'i').test(rest) ? word.length : 0);

/** Splits a list at its top-level commas. */
function splitCommas(text: string): string[] {
  const bounds = [-1, ...scan(text, (rest) => (rest[0] === ',' ? 1 : 0), false), text.length];
  return bounds.slice(1).map((end, i) => text.slice(bounds[i] + 1, end).trim());
}

/** Splits `payload.temp AS t` into the expression and the alias (empty without AS). */
export function parseField(text: string): Field {
  const hits = scan(text, keyword('AS'));
  if (!hits.length) return { expr: text.trim(), alias: '' };
  const at = hits[hits.length - 1];
  return { expr: text.slice(0, at).trim(), alias: text.slice(at + 2).trim() };
}

export const fieldText = (f: Field) => (f.alias.trim() ? `${f.expr.trim()} AS ${f.alias.trim()}` : f.expr.trim());

/** Whether an expression calls a function, e.g. `upper(payload.a)`. */
export const callsFunction = (expr: string) => /[A-Za-z_][\w.]*\s*\(/.test(expr.replace(/'[^']*'|"[^"]*"/g, ''));

export interface ParsedSql {
  fields: string[];
  from: string[];
  where: string;
}

/** The parts of `SELECT … FROM "…", "…" [WHERE …]`, or undefined for other forms (FOREACH, …). */
export function parseSql(sql: string): ParsedSql | undefined {
  const text = sql.trim();
  const select = /^SELECT\s/i.exec(text);
  if (!select) return undefined;
  const froms = scan(text, keyword('FROM'));
  if (froms.length !== 1) return undefined;
  const wheres = scan(text, keyword('WHERE')).filter((i) => i > froms[0]);
  const fromEnd = wheres.length ? wheres[0] : text.length;
  const fromText = text.slice(froms[0] + 4, fromEnd).trim();
  const entries = splitCommas(fromText);
  if (!entries.every((e) => /^"[^"]*"$/.test(e))) return undefined;
  const where = wheres.length ? text.slice(wheres[0] + 5).trim() : '';
  if (wheres.length && !where) return undefined;
  return {
    fields: splitCommas(text.slice(select[0].length, froms[0])).filter(Boolean),
    from: entries.map((e) => e.slice(1, -1)),
    where,
  };
}

// ---- rule → graph --------------------------------------------------------------------------

const sourceKind = (entry: string): SourceKind =>
  entry.startsWith('$events/') ? 'event' : /^\$(bridges|sources)\//.test(entry) ? 'bridge' : 'topic';

/** The graph of a rule, laid out in the 4 columns; undefined when its SQL is not of the flow form. */
export function ruleToGraph(rule: { id: string; sql: string; actions?: RuleAction[] }): Graph | undefined {
  const parsed = parseSql(rule.sql);
  if (!parsed) return undefined;
  const taken = new Set<string>();
  const nodes: FlowNode[] = [];
  const add = (node: Omit<FlowNode, 'x' | 'y'>, row: number) => {
    const full = { ...node, ...position(columnOf(node.kind), row) } as FlowNode;
    nodes.push(full);
    return full;
  };
  const sources = parsed.from.map((entry, row) => {
    const kind = sourceKind(entry);
    const base = kind === 'topic' ? `topic-${entry}` : kind === 'event' ? `event-${entry}` : bridgeNodeId(entry);
    return add({ id: nodeId(base, taken), kind, value: entry }, row);
  });
  const star = parsed.fields.length === 1 && parsed.fields[0] === '*';
  const fn = star ? undefined : add({ id: nodeId(`function-${rule.id}`, taken), kind: 'function', fields: parsed.fields.map(parseField) }, 0);
  const filter = parsed.where ? add({ id: nodeId(`filter-${rule.id}`, taken), kind: 'filter', value: parsed.where }, 0) : undefined;
  const sinks = (rule.actions ?? []).map((a, row) => {
    if (typeof a === 'string') return add({ id: nodeId(`${a.split(':')[0]}-${a.split(':').slice(1).join(':')}`, taken), kind: 'action', value: a }, row);
    if (a.function === 'republish') {
      const args = a.args ?? {};
      return add({ id: nodeId(`republish-${String(args.topic ?? '')}`, taken), kind: 'republish', args }, row);
    }
    return add({ id: nodeId('console', taken), kind: 'console' }, row);
  });
  // A column nothing stands in takes no room: a flow without a function or a filter opens larger.
  const used = [...new Set(nodes.map((n) => columnOf(n.kind)))].sort();
  for (const n of nodes) n.x = position(used.indexOf(columnOf(n.kind)), 0).x;
  const edges: Edge[] = [];
  const link = (from: FlowNode[], to: FlowNode[]) => from.forEach((a) => to.forEach((b) => edges.push({ from: a.id, to: b.id })));
  let last = sources;
  for (const step of [fn, filter]) {
    if (!step) continue;
    link(last, [step]);
    last = [step];
  }
  link(last, sinks);
  return { nodes, edges };
}

// ---- graph → rule --------------------------------------------------------------------------

/** The rule action of a sink node. */
function actionOf(node: FlowNode): RuleAction {
  if (node.kind === 'console') return { function: 'console' };
  if (node.kind === 'republish') return { function: 'republish', args: node.args ?? {} };
  return node.value ?? '';
}

/** The SQL of a graph: `SELECT … FROM … [WHERE …]` with the notes' layout of lines. */
export function graphSql(graph: Graph): string {
  const fn = graph.nodes.find((n) => n.kind === 'function');
  const filter = graph.nodes.find((n) => n.kind === 'filter');
  const fields = fn?.fields?.filter((f) => f.expr.trim()).map(fieldText) ?? [];
  const from = graph.nodes.filter((n) => isSource(n.kind)).map((n) => `"${n.value ?? ''}"`);
  const where = filter?.value?.trim();
  return `SELECT\n  ${fields.length ? fields.join(',\n  ') : '*'}\nFROM\n  ${from.join(',\n  ')}${where ? `\nWHERE\n  ${where}` : ''}`;
}

/** The body of `POST /rules` / `PUT /rules/{id}` for a graph (sinks in canvas order). */
export function graphToRule(graph: Graph, meta: { id: string; description: string; enable: boolean }): FlowRule {
  const sinks = graph.nodes.filter((n) => isSink(n.kind));
  return { id: meta.id, description: meta.description, sql: graphSql(graph), actions: sinks.map(actionOf), enable: meta.enable };
}

// ---- validation ----------------------------------------------------------------------------

/** Why an edge `from → to` may not be drawn (message key), or undefined when it may. */
export function connectionProblem(graph: Graph, from: string, to: string): string | undefined {
  const a = graph.nodes.find((n) => n.id === from);
  const b = graph.nodes.find((n) => n.id === to);
  if (!a || !b || a === b) return 'flows.incorrectConnection';
  if (a.kind === 'filter' && b.kind === 'function') return 'flows.functionFirst';
  if (isSink(a.kind) || isSource(b.kind) || a.kind === b.kind) return 'flows.incorrectConnection';
  if (graph.edges.some((e) => e.from === from && e.to === to)) return 'flows.incorrectConnection';
  return undefined;
}

/** The nodes an edge from `from` may go to. */
export const validTargets = (graph: Graph, from: string) =>
  graph.nodes.filter((n) => !connectionProblem(graph, from, n.id));

/** The source value a node stands for when it is a bridge: `type:name`. */
export const bridgeOf = (entry: string) => entry.replace(/^\$(bridges|sources)\//, '');

/** Whether a sink or bridge source points at an action or source that no longer exists. */
export function isDeleted(node: FlowNode, known?: { actions: string[]; sources: string[] }): boolean {
  if (!known || !node.value) return false;
  if (node.kind === 'action') return !known.actions.includes(node.value);
  if (node.kind === 'bridge') return !known.sources.includes(bridgeOf(node.value));
  return false;
}

/** Whether a node's settings are filled in. */
export function isComplete(node: FlowNode): boolean {
  if (node.kind === 'console') return true;
  if (node.kind === 'republish') return String(node.args?.topic ?? '').trim() !== '';
  if (node.kind === 'function') return (node.fields ?? []).some((f) => f.expr.trim());
  return (node.value ?? '').trim() !== '';
}

export interface Problem {
  /** Message key (flows.*). */
  message: string;
  /** The nodes concerned, when there are some. */
  nodes: string[];
}

/** Everything that keeps a graph from being saved, most basic first; empty when it may be saved. */
export function validateGraph(graph: Graph, known?: { actions: string[]; sources: string[] }): Problem[] {
  const problems: Problem[] = [];
  const report = (message: string, nodes: FlowNode[] = []) => problems.push({ message, nodes: nodes.map((n) => n.id) });
  const { nodes, edges } = graph;
  if (!nodes.some((n) => isSource(n.kind)) || !nodes.some((n) => isSink(n.kind))) report('flows.sourcesRequired');
  for (const e of edges) {
    const others = { nodes, edges: edges.filter((x) => x !== e) };
    const problem = connectionProblem(others, e.from, e.to);
    if (problem) report(problem, nodes.filter((n) => n.id === e.from || n.id === e.to));
  }
  const loose = nodes.filter((n) => (!isSource(n.kind) && !edges.some((e) => e.to === n.id)) || (!isSink(n.kind) && !edges.some((e) => e.from === n.id)));
  if (loose.length) report('flows.unconnected', loose);
  // Connected parts (edges taken both ways): more than one is more than one flow (loose nodes
  // are reported above as such).
  const part = new Map(nodes.map((n) => [n.id, n.id]));
  const root = (id: string): string => (part.get(id) === id ? id : root(part.get(id)!));
  edges.forEach((e) => part.has(e.from) && part.has(e.to) && part.set(root(e.from), root(e.to)));
  if (!loose.length && new Set(nodes.map((n) => root(n.id))).size > 1) report('flows.onlyOne');
  const topics = nodes.filter((n) => n.kind === 'topic' && n.value);
  const repeated = topics.filter((n) => topics.some((m) => m !== n && m.value === n.value));
  if (repeated.length) report('flows.topicExists', repeated);
  const noAlias = nodes.filter((n) => n.kind === 'function' && n.fields?.some((f) => callsFunction(f.expr) && !f.alias.trim()));
  if (noAlias.length) report('flows.aliasRequired', noAlias);
  const incomplete = nodes.filter((n) => !isComplete(n));
  if (incomplete.length) report('flows.incomplete', incomplete);
  const deleted = nodes.filter((n) => isDeleted(n, known));
  if (deleted.length) report('flows.nodeDeleted', deleted);
  return problems;
}

/** Node text for the canvas: the topic, event, condition, fields or target of the node. */
export function nodeSummary(node: FlowNode): string {
  if (node.kind === 'function') return (node.fields ?? []).filter((f) => f.expr.trim()).map(fieldText).join(', ');
  if (node.kind === 'republish') return String(node.args?.topic ?? '');
  if (node.kind === 'bridge') return bridgeOf(node.value ?? '');
  return node.value ?? '';
}
