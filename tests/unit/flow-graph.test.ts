// The flow graph module: rule → graph with the notes' node ids and layout (emqx-api-part2 §6),
// graph → rule body with the SQL regenerated (and accepted by the simulator's SQL parser), round
// trips over many rules, and one failing graph per validation rule with its exact English text.
// Then the canvas view geometry (view.ts): zoom about a point, fit to view, drop and click placement.
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSql } from '../../simulator/rules/evaluator.ts';
import { setLocale, t } from '../../web/lib/i18n.ts';
import {
  connectionProblem, graphToRule, parseField, parseSql, ruleToGraph, validateGraph, validTargets,
  type Graph, type FlowNode,
} from '../../web/features/integration/flows/graph.ts';
import type { RuleAction } from '../../web/features/integration/rules/rules.tsx';
import {
  boundsOf, clampInto, dropPosition, fitView, NODE_SIZE, placeNode, toCanvas, visibleArea, zoomAt, FIT_PADDING, ZOOM_MAX, ZOOM_MIN,
  type Rect, type View,
} from '../../web/features/integration/flows/view.ts';

test.before.each(() => setLocale('en'));

const republish = (topic: string, over: Record<string, unknown> = {}): RuleAction => ({
  function: 'republish',
  args: { topic, qos: 0, retain: false, payload: '${payload}', mqtt_properties: {}, user_properties: '${user_properties}', direct_dispatch: false, ...over },
});

const rules: { id: string; sql: string; actions: RuleAction[] }[] = [
  { id: 'hot', sql: 'SELECT\n  payload.temp AS t,\n  clientid\nFROM\n  "sensors/+"\nWHERE\n  payload.temp > 30', actions: [republish('alerts/${clientid}')] },
  { id: 'plain', sql: 'SELECT\n  *\nFROM\n  "t/#"', actions: [{ function: 'console' }] },
  { id: 'events', sql: 'SELECT\n  clientid,\n  event\nFROM\n  "$events/client_connected",\n  "$events/client_disconnected"', actions: ['http:hook', { function: 'console' }] },
  { id: 'mixed', sql: 'SELECT\n  upper(payload.name) AS name,\n  payload.a.b AS ab,\n  concat(\'a,b\', clientid) AS c\nFROM\n  "a/+",\n  "$events/message_delivered",\n  "$bridges/mqtt:in"\nWHERE\n  name = \'x\' AND (qos > 0 OR retain = true)', actions: ['mqtt:out', republish('x/${ab}', { qos: '${qos}', retain: true, payload: '{"n": "${name}"}' }), { function: 'console' }] },
  { id: 'filter-only', sql: 'SELECT\n  *\nFROM\n  "$sources/mqtt:src"\nWHERE\n  payload.x =~ \'t/#\'', actions: ['kafka_producer:k1'] },
  { id: 'two-republish', sql: 'SELECT\n  payload AS p\nFROM\n  "t/1"', actions: [republish('out'), republish('out')] },
];

for (const rule of rules) {
  test(`round trip rule → graph → rule: ${rule.id}`, () => {
    const graph = ruleToGraph(rule)!;
    assert.ok(graph, 'the rule has a graph');
    assert.equal(validateGraph(graph, { actions: ['http:hook', 'mqtt:out', 'kafka_producer:k1'], sources: ['mqtt:in', 'mqtt:src'] }), []);
    const back = graphToRule(graph, { id: rule.id, description: 'd', enable: false });
    assert.equal(back, { id: rule.id, description: 'd', sql: rule.sql, actions: rule.actions, enable: false });
    compileSql(back.sql); // the broker-like parser accepts the regenerated SQL
    assert.equal(ruleToGraph(back), graph, 'the rebuilt rule gives the same graph');
  });
}

test('round trips for generated rules: sources of each kind, fields with and without aliases, filters, sinks', () => {
  const level = fc.constantFrom('a', 'b1', '+', 'x_y', 'dev-1', '中');
  const topic = fc.oneof(
    fc.array(level, { minLength: 1, maxLength: 4 }).map((l) => l.join('/')),
    fc.array(level, { minLength: 1, maxLength: 3 }).map((l) => `${l.join('/')}/#`),
  );
  const source = fc.oneof(topic, fc.constantFrom('$events/client_connected', '$events/message_dropped', '$bridges/mqtt:in', '$sources/mqtt:src'));
  const expr = fc.constantFrom('payload.temp', 'clientid', 'upper(payload.s)', "concat('a, b', topic)", 'payload.list[1]', 'qos + 1', 'timestamp');
  const field = fc.record({ expr, alias: fc.constantFrom('', 'v', 'x_1', 'alias') })
    .filter((f) => f.alias !== '' || !f.expr.includes('('))
    .map((f) => (f.alias ? `${f.expr} AS ${f.alias}` : f.expr));
  const where = fc.constantFrom('', 'payload.temp > 30', "clientid = 'a' AND qos >= 1", "topic =~ 't/#' OR (payload.x = 1)", 'NOT is_null(payload.v)');
  const action = fc.oneof(
    fc.constant<RuleAction>({ function: 'console' }),
    topic.map((t) => republish(t.replace(/[+#]/g, 'x'))),
    fc.constantFrom<RuleAction>('http:hook', 'mqtt:out', 'kafka_producer:k1'),
  );
  const rule = fc.record({
    id: fc.constantFrom('r1', 'flow_2', 'a-b'),
    from: fc.uniqueArray(source, { minLength: 1, maxLength: 4 }),
    fields: fc.array(field, { maxLength: 4 }),
    where,
    actions: fc.array(action, { minLength: 1, maxLength: 4 }),
  }).map((r) => ({
    id: r.id,
    sql: `SELECT\n  ${r.fields.length ? r.fields.join(',\n  ') : '*'}\nFROM\n  ${r.from.map((f) => `"${f}"`).join(',\n  ')}${r.where ? `\nWHERE\n  ${r.where}` : ''}`,
    actions: r.actions,
  }));
  fc.assert(fc.property(rule, (r) => {
    const graph = ruleToGraph(r)!;
    assert.ok(graph, r.sql);
    assert.equal(validateGraph(graph), []);
    const back = graphToRule(graph, { id: r.id, description: '', enable: true });
    assert.is(back.sql, r.sql);
    compileSql(back.sql);
    assert.equal(back.actions, r.actions);
    assert.equal(ruleToGraph(back), graph);
  }), { numRuns: 300 });
});

// Changed with issue #34: 60 px between columns (the notes' 100 opened four columns at 73 % in 1280 px).
test('node ids and layout: 4 columns, 200×60 nodes, 60/30 px gaps, empty columns left out', () => {
  const graph = ruleToGraph(rules[3])!;
  const at = (id: string) => { const n = graph.nodes.find((x) => x.id === id)!; return [n.kind, n.x, n.y]; };
  assert.equal(graph.nodes.map((n) => n.id), [
    'topic-a/+', 'event-$events/message_delivered', 'mqtt-mqtt:in', 'function-mixed', 'filter-mixed', 'mqtt-out', 'republish-x/${ab}', 'console',
  ]);
  assert.equal(at('topic-a/+'), ['topic', 20, 20]);
  assert.equal(at('event-$events/message_delivered'), ['event', 20, 110]);
  assert.equal(at('mqtt-mqtt:in'), ['bridge', 20, 200]);
  assert.equal(at('function-mixed'), ['function', 280, 20]);
  assert.equal(at('filter-mixed'), ['filter', 540, 20]);
  assert.equal(at('mqtt-out'), ['action', 800, 20]);
  assert.equal(at('console'), ['action', 800, 200].map((v, i) => (i === 0 ? 'console' : v)));
  assert.equal(graph.edges, [
    { from: 'topic-a/+', to: 'function-mixed' }, { from: 'event-$events/message_delivered', to: 'function-mixed' }, { from: 'mqtt-mqtt:in', to: 'function-mixed' },
    { from: 'function-mixed', to: 'filter-mixed' },
    { from: 'filter-mixed', to: 'mqtt-out' }, { from: 'filter-mixed', to: 'republish-x/${ab}' }, { from: 'filter-mixed', to: 'console' },
  ]);
  assert.equal(graph.nodes.find((n) => n.kind === 'function')!.fields, [
    { expr: 'upper(payload.name)', alias: 'name' }, { expr: 'payload.a.b', alias: 'ab' }, { expr: "concat('a,b', clientid)", alias: 'c' },
  ]);
  // Without a function or a filter their columns take no room.
  const bare = ruleToGraph({ id: 'bare', sql: 'SELECT * FROM "t/#"', actions: [{ function: 'console' }] })!;
  assert.equal(bare.nodes.map((n) => [n.kind, n.x]), [['topic', 20], ['console', 280]]);
  // Repeated sinks get distinct ids.
  assert.equal(ruleToGraph(rules[5])!.nodes.map((n) => n.id), ['topic-t/1', 'function-two-republish', 'republish-out', 'republish-out-2']);
});

test('other spellings of the SQL give the same graph; FOREACH and odd FROM lists give none', () => {
  const a = ruleToGraph({ id: 'x', sql: 'select payload.temp as t, clientid from "sensors/+" where payload.temp > 30', actions: [] })!;
  assert.equal(graphToRule(a, { id: 'x', description: '', enable: true }).sql, 'SELECT\n  payload.temp AS t,\n  clientid\nFROM\n  "sensors/+"\nWHERE\n  payload.temp > 30');
  assert.equal(parseSql('SELECT payload.from AS f FROM "t/#"'), { fields: ['payload.from AS f'], from: ['t/#'], where: '' });
  assert.equal(parseSql("SELECT * FROM \"t/#\" WHERE payload.s = 'a FROM b'"), { fields: ['*'], from: ['t/#'], where: "payload.s = 'a FROM b'" });
  assert.is(ruleToGraph({ id: 'x', sql: 'FOREACH payload.l FROM "t/#"', actions: [] }), undefined);
  assert.is(ruleToGraph({ id: 'x', sql: 'SELECT * FROM t', actions: [] }), undefined);
  assert.equal(parseField('payload.a'), { expr: 'payload.a', alias: '' });
  assert.equal(parseField("case when x then 'AS' else 1 end AS v"), { expr: "case when x then 'AS' else 1 end", alias: 'v' });
});

// ---- validation: one failing graph per rule --------------------------------------------------

const node = (id: string, kind: FlowNode['kind'], over: Partial<FlowNode> = {}): FlowNode => ({
  id, kind, x: 0, y: 0,
  value: kind === 'topic' ? `t/${id}` : kind === 'filter' ? 'qos > 0' : kind === 'event' ? '$events/client_connected' : kind === 'action' ? 'http:hook' : undefined,
  fields: kind === 'function' ? [{ expr: 'clientid', alias: '' }] : undefined,
  args: kind === 'republish' ? { topic: 'out' } : undefined,
  ...over,
});
const messages = (graph: Graph, known?: { actions: string[]; sources: string[] }) => validateGraph(graph, known).map((p) => t(p.message));
const good = (): Graph => ({
  nodes: [node('s', 'topic'), node('f', 'function'), node('w', 'filter'), node('o', 'console')],
  edges: [{ from: 's', to: 'f' }, { from: 'f', to: 'w' }, { from: 'w', to: 'o' }],
});

test('a complete graph passes', () => {
  assert.equal(messages(good()), []);
});

test('Unable to save, there must be at least one Sink node and one Source node in the Flow', () => {
  assert.equal(messages({ nodes: [node('s', 'topic')], edges: [] })[0], 'Unable to save, there must be at least one Sink node and one Source node in the Flow');
  assert.equal(messages({ nodes: [node('o', 'console')], edges: [] })[0], 'Unable to save, there must be at least one Sink node and one Source node in the Flow');
  assert.equal(messages({ nodes: [], edges: [] }), ['Unable to save, there must be at least one Sink node and one Source node in the Flow']);
});

test('Unconnected nodes are not allowed', () => {
  const g = good();
  g.nodes.push(node('lonely', 'republish'));
  assert.ok(messages(g).includes('Unconnected nodes are not allowed'));
  assert.equal(validateGraph(g).find((p) => p.message === 'flows.unconnected')!.nodes, ['lonely']);
  // A filter fed by nothing is loose too, even if it leads somewhere.
  const h = good();
  h.edges = h.edges.filter((e) => e.from !== 'f');
  assert.equal(messages(h), ['Unconnected nodes are not allowed']);
});

test('Only one flow can be created at a time', () => {
  const g = good();
  g.nodes.push(node('s2', 'topic'), node('o2', 'console'));
  g.edges.push({ from: 's2', to: 'o2' });
  assert.equal(messages(g), ['Only one flow can be created at a time']);
});

test('Function nodes must come before filter nodes', () => {
  const g: Graph = { nodes: [node('s', 'topic'), node('w', 'filter'), node('f', 'function'), node('o', 'console')], edges: [{ from: 's', to: 'w' }, { from: 'w', to: 'f' }, { from: 'f', to: 'o' }] };
  assert.equal(messages(g), ['Function nodes must come before filter nodes']);
  assert.is(connectionProblem(good(), 'w', 'f'), 'flows.functionFirst');
});

test('An alias is required after a function call', () => {
  const g = good();
  g.nodes[1] = node('f', 'function', { fields: [{ expr: 'upper(payload.a)', alias: '' }, { expr: 'clientid', alias: '' }] });
  assert.equal(messages(g), ['An alias is required after a function call']);
  g.nodes[1].fields![0].alias = 'a';
  assert.equal(messages(g), []);
});

test('Incorrect connection: from a sink, into a source, source to source, to itself, twice', () => {
  const g = good();
  for (const [from, to] of [['o', 's'], ['o', 'w'], ['f', 's'], ['s', 's'], ['f', 'f'], ['s', 'f']]) {
    assert.is(t(connectionProblem(g, from, to)!), 'Incorrect connection', `${from} → ${to}`);
  }
  const h = good();
  h.nodes.push(node('s2', 'event'));
  h.edges.push({ from: 's2', to: 's' });
  assert.ok(messages(h).includes('Incorrect connection'));
  assert.equal(validTargets(good(), 's').map((n) => n.id), ['w', 'o']);
  assert.equal(validTargets(good(), 'o'), []);
});

test('Topic already exists', () => {
  const g = good();
  g.nodes.push(node('s2', 'topic', { value: 't/s' }));
  g.edges.push({ from: 's2', to: 'f' });
  assert.equal(messages(g), ['Topic already exists']);
});

test('This node has been deleted, please update flow in time (action and source)', () => {
  const g: Graph = { nodes: [node('b', 'bridge', { value: '$bridges/mqtt:gone' }), node('a', 'action', { value: 'http:gone' })], edges: [{ from: 'b', to: 'a' }] };
  assert.equal(messages(g, { actions: ['http:hook'], sources: ['mqtt:in'] }), ['This node has been deleted, please update flow in time']);
  assert.equal(validateGraph(g, { actions: ['http:hook'], sources: ['mqtt:in'] })[0].nodes, ['b', 'a']);
  assert.equal(messages(g, { actions: ['http:gone'], sources: ['mqtt:gone'] }), []);
});

test('nodes left without settings are reported', () => {
  const g = good();
  g.nodes[0] = node('s', 'topic', { value: '' });
  assert.equal(messages(g), ['Complete the settings of every node']);
});

test('the messages have zh texts too', () => {
  setLocale('zh');
  assert.is(t('flows.nodeDeleted'), '该节点已被删除，请及时更新 Flow');
  setLocale('en');
});

// ---- view geometry -------------------------------------------------------------------------

/** Where a canvas rect is drawn inside the canvas box under `view`. */
const onScreen = (v: View, r: Rect): Rect => ({ x: v.x + r.x * v.zoom, y: v.y + r.y * v.zoom, width: r.width * v.zoom, height: r.height * v.zoom });
const within = (r: Rect, box: { width: number; height: number }, margin = 0) =>
  r.x >= margin - 1e-6 && r.y >= margin - 1e-6 && r.x + r.width <= box.width - margin + 1e-6 && r.y + r.height <= box.height - margin + 1e-6;
const rectsOf = (g: Graph): Rect[] => g.nodes.map((n) => ({ x: n.x, y: n.y, ...NODE_SIZE }));
const close = (a: number, b: number) => Math.abs(a - b) < 1e-9;
const apart = (a: Rect, b: Rect) => a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;

test('zooming about a point keeps the canvas point under it in place, within the limits', () => {
  const view: View = { x: 40, y: -30, zoom: 1 };
  const at = { x: 300, y: 200 };
  const before = toCanvas(view, at);
  const zoomed = zoomAt(view, 1.44, at);
  assert.is(zoomed.zoom, 1.44);
  const after = toCanvas(zoomed, at);
  assert.ok(close(after.x, before.x) && close(after.y, before.y), JSON.stringify([before, after]));
  assert.is(zoomAt(view, 100, at).zoom, ZOOM_MAX);
  assert.is(zoomAt(view, 0.01, at).zoom, ZOOM_MIN);
  // A fit below the limit may be zoomed out from without jumping back up to it.
  assert.is(zoomAt({ x: 0, y: 0, zoom: 0.1 }, 0.08, at).zoom, 0.1);
  assert.is(zoomAt({ x: 0, y: 0, zoom: 0.1 }, 0.12, at).zoom, 0.12);
  assert.equal(visibleArea({ x: -100, y: 50, zoom: 2 }, { width: 800, height: 400 }), { x: 50, y: -25, width: 400, height: 200 });
});

test('fit to view shows every node of the four-column layout whole, centred, never above 100 %', () => {
  const graph = ruleToGraph(rules[3])!; // sources, function, filter and three sinks: all four columns
  const nodes = rectsOf(graph);
  const box = { width: 820, height: 540 }; // the canvas in a 1280 px wide window
  const view = fitView(nodes, box);
  assert.ok(view.zoom < 1, 'the four columns are wider than the box');
  for (const r of nodes) assert.ok(within(onScreen(view, r), box, FIT_PADDING - 1e-6), JSON.stringify(onScreen(view, r)));
  const drawn = onScreen(view, boundsOf(nodes)!);
  assert.ok(close(drawn.x, box.width - drawn.x - drawn.width), 'centred across');
  assert.ok(close(drawn.y, box.height - drawn.y - drawn.height), 'centred down');
  // A small flow far off to the side is brought into view at 100 %.
  const small = [{ x: 3000, y: -900, ...NODE_SIZE }];
  const v2 = fitView(small, box);
  assert.is(v2.zoom, 1);
  assert.equal(onScreen(v2, small[0]), { x: 310, y: 240, ...NODE_SIZE });
  assert.equal(fitView([], box), { x: 0, y: 0, zoom: 1 });
});

test('fit to view: any set of nodes in any box ends up whole inside it', () => {
  const rect = fc.record({ x: fc.integer({ min: -5000, max: 5000 }), y: fc.integer({ min: -5000, max: 5000 }), width: fc.constant(200), height: fc.integer({ min: 60, max: 120 }) });
  const box = fc.record({ width: fc.integer({ min: 200, max: 2000 }), height: fc.integer({ min: 150, max: 1200 }) });
  fc.assert(fc.property(fc.array(rect, { minLength: 1, maxLength: 12 }), box, (rects, size) => {
    const view = fitView(rects, size);
    assert.ok(view.zoom > 0 && view.zoom <= 1);
    for (const r of rects) assert.ok(within(onScreen(view, r), size), JSON.stringify({ r, size, view }));
  }));
});

test('a dropped node lands centred where it was dropped, and inside the visible canvas near its edges', () => {
  const box = { width: 800, height: 500 };
  const view: View = { x: -100, y: 20, zoom: 0.5 };
  const at = { x: 400, y: 250 };
  const p = dropPosition(view, box, at);
  const centre = toCanvas(view, at);
  assert.equal({ x: p.x + NODE_SIZE.width / 2, y: p.y + NODE_SIZE.height / 2 }, centre);
  for (const corner of [{ x: 2, y: 2 }, { x: 798, y: 498 }, { x: 799, y: 0 }]) {
    const q = dropPosition(view, box, corner);
    assert.ok(within(onScreen(view, { ...q, ...NODE_SIZE }), box), JSON.stringify({ corner, q }));
  }
  // A node bigger than the area is put at its top-left rather than left of it.
  assert.equal(clampInto({ x: 500, y: 500 }, { width: 300, height: 100 }, { x: 0, y: 0, width: 200, height: 50 }), { x: 0, y: 0 });
});

test('a clicked node keeps its column place when that is in view and free', () => {
  const area = { x: 0, y: 0, width: 1200, height: 540 };
  assert.equal(placeNode({ x: 320, y: 110 }, [{ x: 20, y: 20, ...NODE_SIZE }], area), { x: 320, y: 110 });
  // No layout (the area has no size): the column place.
  assert.equal(placeNode({ x: 920, y: 20 }, [], { x: 0, y: 0, width: 0, height: 0 }), { x: 920, y: 20 });
});

test('a clicked node whose column is out of view lands inside the visible canvas, clear of the others', () => {
  // The sink column (x 920–1120) in a canvas showing 0–800: it used to be drawn cut off.
  const graph = ruleToGraph(rules[0])!;
  const taken = rectsOf(graph).filter((r) => r.x < 800);
  const area = { x: 0, y: 0, width: 800, height: 540 };
  const p = placeNode({ x: 920, y: 20 }, taken, area);
  const placed = { ...p, ...NODE_SIZE };
  assert.ok(within({ ...placed, x: placed.x - area.x, y: placed.y - area.y }, area), JSON.stringify(p));
  for (const r of taken) assert.ok(apart(placed, r), JSON.stringify({ placed, r }));
  // Panned right and zoomed out: the visible area is elsewhere, and so is the place.
  const view: View = { x: 300, y: -200, zoom: 0.5 };
  const seen = visibleArea(view, { width: 800, height: 540 });
  const q = placeNode({ x: 20, y: 20 }, [], seen);
  assert.ok(within(onScreen(view, { ...q, ...NODE_SIZE }), { width: 800, height: 540 }), JSON.stringify(q));
  // A source whose column is cut at the left is moved in as well.
  const left = placeNode({ x: 20, y: 20 }, [], { x: 100, y: 0, width: 800, height: 540 });
  assert.ok(left.x >= 100, JSON.stringify(left));
});

test('a clicked node goes to the nearest free place; a full canvas still gets it in view', () => {
  const area = { x: 0, y: 0, width: 700, height: 300 };
  const taken: Rect[] = [{ x: 320, y: 20, ...NODE_SIZE }, { x: 320, y: 110, ...NODE_SIZE }];
  const p = placeNode({ x: 320, y: 20 }, taken, area);
  const placed = { ...p, ...NODE_SIZE };
  for (const r of taken) assert.ok(apart(placed, r), JSON.stringify({ placed, r }));
  assert.ok(within(placed, area), JSON.stringify(p));
  // Every place taken: the node overlaps, but inside the area.
  const full: Rect[] = [{ x: 0, y: 0, width: 700, height: 300 }];
  const q = placeNode({ x: 920, y: 400 }, full, area);
  assert.ok(within({ ...q, ...NODE_SIZE }, area), JSON.stringify(q));
});

test.run();
