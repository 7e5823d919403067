// The flow graph module: rule → graph with the notes' node ids and layout (emqx-api-part2 §6),
// graph → rule body with the SQL regenerated (and accepted by the simulator's SQL parser), round
// trips over many rules, and one failing graph per validation rule with its exact English text.
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

test('node ids and layout follow the notes (4 columns, 200×60 nodes, 100/30 px gaps)', () => {
  const graph = ruleToGraph(rules[3])!;
  const at = (id: string) => { const n = graph.nodes.find((x) => x.id === id)!; return [n.kind, n.x, n.y]; };
  assert.equal(graph.nodes.map((n) => n.id), [
    'topic-a/+', 'event-$events/message_delivered', 'mqtt-mqtt:in', 'function-mixed', 'filter-mixed', 'mqtt-out', 'republish-x/${ab}', 'console',
  ]);
  assert.equal(at('topic-a/+'), ['topic', 20, 20]);
  assert.equal(at('event-$events/message_delivered'), ['event', 20, 110]);
  assert.equal(at('mqtt-mqtt:in'), ['bridge', 20, 200]);
  assert.equal(at('function-mixed'), ['function', 320, 20]);
  assert.equal(at('filter-mixed'), ['filter', 620, 20]);
  assert.equal(at('mqtt-out'), ['action', 920, 20]);
  assert.equal(at('console'), ['action', 920, 200].map((v, i) => (i === 0 ? 'console' : v)));
  assert.equal(graph.edges, [
    { from: 'topic-a/+', to: 'function-mixed' }, { from: 'event-$events/message_delivered', to: 'function-mixed' }, { from: 'mqtt-mqtt:in', to: 'function-mixed' },
    { from: 'function-mixed', to: 'filter-mixed' },
    { from: 'filter-mixed', to: 'mqtt-out' }, { from: 'filter-mixed', to: 'republish-x/${ab}' }, { from: 'filter-mixed', to: 'console' },
  ]);
  assert.equal(graph.nodes.find((n) => n.kind === 'function')!.fields, [
    { expr: 'upper(payload.name)', alias: 'name' }, { expr: 'payload.a.b', alias: 'ab' }, { expr: "concat('a,b', clientid)", alias: 'c' },
  ]);
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

test('At least one Source node and one Sink node are required', () => {
  assert.equal(messages({ nodes: [node('s', 'topic')], edges: [] })[0], 'At least one Source node and one Sink node are required');
  assert.equal(messages({ nodes: [node('o', 'console')], edges: [] })[0], 'At least one Source node and one Sink node are required');
  assert.equal(messages({ nodes: [], edges: [] }), ['At least one Source node and one Sink node are required']);
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

test.run();
