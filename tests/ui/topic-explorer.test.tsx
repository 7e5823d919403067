import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { act } from 'preact/test-utils';
import { App } from '../../web/app/App.tsx';
import { jsonDiff, numberOf, numericFields } from '../../web/features/diagnose/topic-explorer/analysis.ts';
import { addressFromListeners, explorer, filters, model, resetExplorer, select } from '../../web/features/diagnose/topic-explorer/store.ts';
import { TopicTree, visibleRows } from '../../web/features/diagnose/topic-explorer/tree.ts';
import { resetWebSocketClient, setClientFactory, wsClient, type MqttLike } from '../../web/features/diagnose/websocket/store.ts';
import { restoreSession } from '../../web/lib/session.ts';
import { saveUser } from '../../web/lib/storage.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, route, type, waitFor } from '../helpers/render.tsx';

const T0 = Date.UTC(2026, 0, 1, 8, 0, 0);
const enc = (s: string) => new TextEncoder().encode(s);
const msg = (topic: string, payload: string | Uint8Array = 'x', time = T0, retain = false) =>
  ({ topic, qos: 0 as const, retain, time, payload: typeof payload === 'string' ? enc(payload) : payload });

test('every message counts on its topic and each level above; topics are counted once', () => {
  const tree = new TopicTree(undefined, T0);
  tree.add(msg('a/b'));
  tree.add(msg('a/b'));
  tree.add(msg('a/c'));
  tree.add(msg('x'));
  tree.add(msg('a'));
  assert.is(tree.root.count, 5);
  assert.is(tree.find('a')!.count, 4);
  assert.is(tree.find('a/b')!.count, 2);
  assert.is(tree.find('a/c')!.count, 1);
  assert.is(tree.stats.topics, 4, 'a, a/b, a/c and x');
  assert.ok(tree.find('a')!.isTopic);
  assert.is(tree.find('a/b')!.history.length, 2);
  assert.is(tree.find('a')!.last!.topic, 'a');
});

test('subtree rates are the messages of the last seconds per second, and fall to zero when quiet', () => {
  const tree = new TopicTree(undefined, T0);
  for (let s = 1; s <= 8; s++) {
    for (let i = 0; i < 30; i++) tree.add(msg('plant/1/temp', '1', T0 + s * 1000 - 500));
    for (let i = 0; i < 20; i++) tree.add(msg('plant/2/temp', '1', T0 + s * 1000 - 500));
    tree.sample(T0 + s * 1000);
  }
  assert.is(tree.find('plant/1/temp')!.rate, 30);
  assert.is(tree.find('plant/2')!.rate, 20);
  assert.is(tree.find('plant')!.rate, 50);
  assert.is(tree.root.rate, 50);
  for (let s = 9; s <= 14; s++) tree.sample(T0 + s * 1000);
  assert.is(tree.find('plant')!.rate, 0);
  assert.is(tree.find('plant')!.count, 400, 'counts stay');
});

test('history is bounded per topic and in total; the oldest are dropped and counted', () => {
  const tree = new TopicTree({ history: 50, kept: 100, bytes: 1e9, nodes: 1000, window: 5 }, T0);
  for (let i = 0; i < 60; i++) tree.add(msg('one', String(i)));
  const one = tree.find('one')!;
  assert.is(one.history.length, 50);
  assert.is(one.dropped, 10);
  assert.is(new TextDecoder().decode(one.history[0].payload!), '10', 'the oldest went first');
  assert.is(tree.stats.dropped, 10);
  for (let i = 0; i < 90; i++) tree.add(msg(`many/${i % 3}`, String(i)));
  assert.is(tree.stats.kept, 100);
  assert.is(tree.stats.dropped, 50);
  // The total bound dropped the oldest messages overall: those of `one` first.
  assert.is(one.history.length, 10);
  assert.is(tree.find('many/0')!.history.length, 30);
  assert.is(tree.stats.messages, 150);
  assert.is(tree.root.count, 150);
});

test('one busy topic keeps its last 50 messages, and the bookkeeping stays bounded too', () => {
  const tree = new TopicTree(undefined, T0);
  for (let i = 0; i < 20_000; i++) tree.add(msg('hot', String(i)));
  assert.is(tree.find('hot')!.history.length, 50);
  assert.is(tree.stats.dropped, 19_950);
  assert.ok((tree as unknown as { queue: unknown[] }).queue.length <= 2 * 50 + 2048);
  assert.is(new TextDecoder().decode(tree.find('hot')!.history[49].payload!), '19999');
});

test('payload bytes are bounded in total', () => {
  const tree = new TopicTree({ history: 50, kept: 1000, bytes: 1000, nodes: 1000, window: 5 }, T0);
  for (let i = 0; i < 30; i++) tree.add(msg(`t/${i}`, new Uint8Array(100)));
  assert.ok(tree.stats.bytes <= 1000);
  assert.is(tree.stats.kept, 10);
  assert.is(tree.stats.dropped, 20);
  assert.is(tree.find('t/0')!.history.length, 0);
  assert.is(tree.find('t/29')!.history.length, 1);
});

test('a payload over 1 MB is counted but not kept', () => {
  const tree = new TopicTree(undefined, T0);
  const big = new Uint8Array(1024 * 1024 + 1);
  const kept = tree.add(msg('big', big));
  assert.is(kept.payload, null);
  assert.is(kept.size, big.length);
  assert.is(tree.find('big')!.count, 1);
  assert.is(tree.stats.tooLarge, 1);
  assert.is(tree.stats.bytes, 0);
  const small = tree.add(msg('big', 'ok'));
  assert.equal([...small.payload!], [...enc('ok')]);
  // A view into a large read buffer is copied, so the buffer is not kept alive.
  const frame = new Uint8Array(64 * 1024).fill(0x61);
  const view = tree.add(msg('view', frame.subarray(0, 10)));
  assert.is(view.payload!.buffer.byteLength, 10);
  assert.is(new TextDecoder().decode(view.payload!), 'aaaaaaaaaa');
});

test('past the node bound, messages count on their deepest known level and as untracked', () => {
  const tree = new TopicTree({ history: 50, kept: 1000, bytes: 1e9, nodes: 4, window: 5 }, T0);
  tree.add(msg('a/b/c'));
  tree.add(msg('a/x/y'));
  assert.is(tree.stats.untracked, 1);
  assert.is(tree.find('a')!.count, 2);
  assert.is(tree.find('a/x'), undefined);
  assert.is(tree.stats.messages, 2);
});

test('a retained message sets the marker and an empty retained one clears it', () => {
  const tree = new TopicTree(undefined, T0);
  tree.add(msg('r', 'v', T0, true));
  assert.ok(tree.find('r')!.retained);
  tree.add(msg('r', 'live'));
  assert.ok(tree.find('r')!.retained, 'a live message leaves it');
  tree.add(msg('r', '', T0, true));
  assert.not.ok(tree.find('r')!.retained);
});

test('rows: children of expanded levels in name, rate or last-update order; a search shows the way to matches', () => {
  const tree = new TopicTree(undefined, T0);
  tree.add(msg('b/1', 'x', T0 + 3));
  tree.add(msg('a/2', 'x', T0 + 1));
  tree.add(msg('a/1', 'x', T0 + 2));
  for (let i = 0; i < 5; i++) tree.add(msg('c', 'x', T0));
  tree.sample(T0 + 1000);
  const paths = (rows: { node: { path: string } }[]) => rows.map((r) => r.node.path);
  assert.equal(paths(visibleRows(tree, new Set(), 'name')), ['a', 'b', 'c']);
  assert.equal(paths(visibleRows(tree, new Set(['a']), 'name')), ['a', 'a/1', 'a/2', 'b', 'c']);
  assert.equal(paths(visibleRows(tree, new Set(), 'rate')), ['c', 'a', 'b']);
  assert.equal(paths(visibleRows(tree, new Set(['a']), 'last')), ['b', 'a', 'a/1', 'a/2', 'c']);
  assert.equal(paths(visibleRows(tree, new Set(), 'name', '1')), ['a', 'a/1', 'b', 'b/1']);
  assert.equal(paths(visibleRows(tree, new Set(), 'name', '+/2')), ['a', 'a/2']);
  assert.equal(paths(visibleRows(tree, new Set(), 'name', 'nothing')), []);
});

test('the JSON diff marks changed lines; numbers come from the payload or a JSON field', () => {
  const tree = new TopicTree(undefined, T0);
  tree.add(msg('j', '{"t": 20.5, "unit": "C", "n": {"h": 40}}'));
  assert.is(jsonDiff(tree.find('j')!.history), 'none');
  tree.add(msg('j', 'not json'));
  tree.add(msg('j', '{"t": 21, "unit": "C", "n": {"h": 40}}'));
  const diff = jsonDiff(tree.find('j')!.history);
  assert.ok(Array.isArray(diff));
  const changed = (diff as { kind: string; text: string }[]).filter((l) => l.kind !== ' ');
  assert.equal(changed, [{ kind: '-', text: '  "t": 20.5,' }, { kind: '+', text: '  "t": 21,' }]);
  assert.equal(numericFields({ t: 1, unit: 'C', n: { h: 40 }, list: [3] }), ['t', 'n.h', 'list.0']);
  const history = tree.find('j')!.history;
  assert.is(numberOf(history[2], 'n.h'), 40);
  assert.is(numberOf(history[1], 't'), null);
  assert.is(numberOf(tree.add(msg('n', '42.5')), ''), 42.5);
});

test('the address comes from the first enabled WebSocket listener, with the page host and /mqtt', () => {
  resetExplorer();
  const ok = addressFromListeners([
    { type: 'tcp', bind: '0.0.0.0:1883' },
    { type: 'wss', enable: false, bind: '0.0.0.0:8084' },
    { type: 'ws', enable: true, bind: '0.0.0.0:8083' },
  ], { hostname: 'ops.example' });
  assert.ok(ok);
  assert.is(explorer.settings.protocol, 'ws');
  assert.is(explorer.settings.host, 'ops.example');
  assert.is(explorer.settings.port, 8083);
  assert.is(explorer.settings.path, '/mqtt');
  assert.not.ok(addressFromListeners([{ type: 'tcp', bind: '1883' }]));
  explorer.sys = true;
  assert.equal(filters(), ['#', '$SYS/#']);
  resetExplorer();
});

/** An mqtt.js stand-in: the test fires its events. */
class FakeClient implements MqttLike {
  handlers = new Map<string, ((...args: any[]) => void)[]>();
  calls: unknown[][] = [];
  on(event: string, listener: (...args: any[]) => void) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), listener]);
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    for (const h of this.handlers.get(event) ?? []) h(...args);
  }
  subscribe(topic: string, options: object) {
    this.calls.push(['subscribe', topic, options]);
  }
  unsubscribe() {}
  publish() {}
  end() {
    this.calls.push(['end']);
  }
  reconnect() {
    this.calls.push(['reconnect']);
  }
}

async function openScreen(made: { url: string; client: FakeClient }[], routes: Parameters<typeof fakeApi>[0] = {}) {
  resetExplorer();
  setClientFactory((url) => {
    const client = new FakeClient();
    made.push({ url, client });
    return client;
  });
  reset('/topic-explorer');
  await saveUser({ username: 'admin', token: 'tok-1' });
  await restoreSession();
  const api = fakeApi({
    'GET /alarms': { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } },
    'GET /listeners': { body: [{ id: 'ws:default', type: 'ws', enable: true, bind: '0.0.0.0:8083' }] },
    'GET /subscriptions': { body: { data: [], meta: { page: 1, limit: 20, hasnext: false } } },
    'GET /topics': { body: { data: [], meta: { page: 1, limit: 1000, hasnext: false, count: 0 } } },
    ...routes,
  });
  await mount(<App />);
  await waitFor(() => byTest('explorer-page'));
  await waitFor(() => explorer.addressFrom === 'listeners');
  return api;
}

test('a lost connection is retried after a back-off; a refused login asks for credentials and is not retried', async () => {
  const made: { url: string; client: FakeClient }[] = [];
  const api = await openScreen(made);
  try {
    await click(byTest('explorer-connect'));
    await waitFor(() => made.length === 1);
    const client = made[0].client;
    client.emit('connect', {});
    await waitFor(() => byTest('explorer-state')?.dataset.state === 'connected');
    client.emit('close');
    await waitFor(() => byTest('explorer-state')?.dataset.state === 'reconnecting');
    assert.is(byTest('explorer-error')!.textContent, 'connection disconnected');
    assert.not.ok(client.calls.some((c) => c[0] === 'reconnect'), 'not at once');
    await waitFor(() => client.calls.some((c) => c[0] === 'reconnect'), 2500);
    client.emit('error', Object.assign(new Error('Bad username or password'), { code: 4 }));
    await waitFor(() => byTest('explorer-state')?.dataset.state === 'disconnected');
    assert.ok(byTest('explorer-needs-auth'));
    assert.ok(document.querySelector<HTMLDetailsElement>('[data-test=explorer-connection] details')!.open);
    assert.ok(client.calls.some((c) => c[0] === 'end'));
  } finally {
    api.restore();
    cleanup();
    setClientFactory(null);
    resetExplorer();
  }
});

test('the screen connects to the listener address, subscribes, and shows a hostile topic and payload as text', async () => {
  const made: { url: string; client: FakeClient }[] = [];
  const api = await openScreen(made);
  try {
    await click(byTest('explorer-connect'));
    await waitFor(() => made.length === 1);
    assert.is(made[0].url, `ws://${location.hostname}:8083/mqtt`);
    made[0].client.emit('connect', {});
    await waitFor(() => byTest('ws-state')?.dataset.state === 'connected');
    assert.equal(made[0].client.calls[0], ['subscribe', '#', { qos: 1, rap: true }]);
    const hostile = '"><img src=x onerror=alert(1)>';
    made[0].client.emit('message', hostile, enc(`<script>alert(2)</script>${hostile}`), { qos: 0, retain: false });
    made[0].client.emit('message', 'plant/1/temp', enc('{"t": 20}'), { qos: 1, retain: true });
    const row = await waitFor(() => document.querySelector<HTMLElement>(`[data-test=explorer-node][data-path='${CSS.escape(hostile)}']`));
    assert.is(row.querySelector('[data-test=explorer-node-name]')!.textContent, hostile);
    assert.ok(row.querySelector('[data-test=explorer-node-preview]')!.textContent!.startsWith('<script>'));
    await click(row);
    await waitFor(() => byTest('explorer-panel-topic')?.textContent === hostile);
    assert.is(document.querySelectorAll('img, script:not([src])').length, 0, 'no markup from the wire');
    assert.ok(document.querySelector('[data-test=explorer-node][data-path=plant] [data-test=explorer-node-count]')!.textContent!.startsWith('1'));
    assert.ok(model().tree.find('plant/1/temp')!.retained);
    // Changed with issue #34: the route filters are read and matched here; `match_topic` takes a filter, not a topic.
    await waitFor(() => api.calls.some((c) => c.path === '/topics'));
    assert.not.ok(api.calls.some((c) => c.query.has('match_topic')));
    await type(byTest('explorer-search'), 'temp');
    await waitFor(() => document.querySelectorAll('[data-test=explorer-node]').length === 3);
    assert.equal([...document.querySelectorAll<HTMLElement>('[data-test=explorer-node]')].map((e) => e.dataset.path), ['plant', 'plant/1', 'plant/1/temp']);
    await type(byTest('explorer-search'), 'nothing');
    await waitFor(() => byTest('state-empty')?.textContent === 'No topic matches');
    await type(byTest('explorer-search'), '');
    await waitFor(() => document.querySelectorAll('[data-test=explorer-node]').length === 2);
    await click(byTest('explorer-open-client'));
    await waitFor(() => route().startsWith('/websocket'));
    assert.is(wsClient.connections[0].publishForm.topic, hostile);
    assert.is(wsClient.connections[0].subscribeForm.topic, hostile);
    await waitFor(() => byTest('websocket-page'));
    assert.is(byTest('ws-state')!.dataset.state, 'disconnected', 'the test client has its own connection');
    assert.is(explorer.status, 'connected', 'the explorer keeps running');
  } finally {
    api.restore();
    cleanup();
    setClientFactory(null);
    resetExplorer();
    resetWebSocketClient();
  }
});

test('matching subscriptions come from the route filters that match the topic, over every page of 10,000 routes; retained and metrics are asked only when opened', async () => {
  const made: { url: string; client: FakeClient }[] = [];
  // 10,000 routes: concrete topics of other devices, a few filters, a shared one; the matching ones on the last page.
  const routes = Array.from({ length: 9996 }, (_, i) => ({ topic: `load/${i + 8}/data`, node: 'emqx@node1' }));
  routes.push({ topic: 'load/+/status', node: 'emqx@node1' }, { topic: '$share/g1/load/+/data', node: 'emqx@node1' }, { topic: 'load/7/#', node: 'emqx@node1' }, { topic: '#', node: 'emqx@node2' });
  const subs: Record<string, { clientid: string; topic: string; qos: number; node: string }[]> = {
    'load/7/#': [{ clientid: 'deep', topic: 'load/7/#', qos: 1, node: 'emqx@node1' }],
    '#': [{ clientid: 'all', topic: '#', qos: 0, node: 'emqx@node2' }],
    'load/+/data|g1': [{ clientid: 'worker', topic: '$share/g1/load/+/data', qos: 1, node: 'emqx@node1' }],
  };
  const api = await openScreen(made, {
    'GET /topics': (call) => {
      const page = Number(call.query.get('page'));
      const limit = Number(call.query.get('limit'));
      return { body: { data: routes.slice((page - 1) * limit, page * limit), meta: { page, limit, count: routes.length, hasnext: page * limit < routes.length } } };
    },
    'GET /subscriptions': (call) => {
      const key = call.query.get('share_group') ? `${call.query.get('topic')}|${call.query.get('share_group')}` : call.query.get('topic')!;
      return { body: { data: subs[key] ?? [], meta: { page: 1, limit: 20, hasnext: false } } };
    },
    'GET /mqtt/retainer/messages': { body: { data: [], meta: { page: 1, limit: 1, hasnext: false } } },
    'GET /mqtt/topic_metrics': { body: [] },
  });
  try {
    await click(byTest('explorer-connect'));
    await waitFor(() => made.length === 1);
    made[0].client.emit('connect', {});
    made[0].client.emit('message', 'load/7/data', enc('42'), { qos: 0, retain: false });
    await waitFor(() => document.querySelector('[data-test=explorer-node][data-path=load]'));
    await act(() => select('load/7/data'));
    await waitFor(() => document.querySelectorAll('[data-test=explorer-subscriber]').length === 3);
    const shown = [...document.querySelectorAll('[data-test=explorer-subscriber]')].map((row) => row.querySelector('code')!.textContent).sort();
    assert.equal(shown, ['all', 'deep', 'worker']);
    assert.is(api.calls.filter((c) => c.path === '/topics').length, 10, 'every page of routes, 1000 at a time');
    assert.equal(api.calls.filter((c) => c.path === '/subscriptions').map((c) => c.query.toString()).sort(),
      ['topic=%23&page=1&limit=20', 'topic=load%2F%2B%2Fdata&share_group=g1&page=1&limit=20', 'topic=load%2F7%2F%23&page=1&limit=20'].sort());
    assert.not.ok(api.calls.some((c) => c.path.startsWith('/mqtt/')), 'nothing asked about retained messages or metrics yet');
    const retained = byTest<HTMLDetailsElement>('explorer-retained-section')!;
    await act(async () => {
      retained.open = true;
      retained.dispatchEvent(new Event('toggle'));
    });
    await waitFor(() => byTest('explorer-no-retained'));
    assert.ok(api.calls.some((c) => c.path === '/mqtt/retainer/messages' && c.query.get('topic') === 'load/7/data'));
    assert.not.ok(api.calls.some((c) => c.path.startsWith('/mqtt/retainer/message/')), 'no probe that answers 404');
    assert.not.ok(api.calls.some((c) => c.path.startsWith('/mqtt/topic_metrics')));
  } finally {
    api.restore();
    cleanup();
    setClientFactory(null);
    resetExplorer();
  }
});

test.run();
