// GET /prometheus/stats: valid text exposition format whose connection gauge equals /stats, the
// JSON form, the three modes, basic auth when enabled; and the /prometheus and /opentelemetry
// configs round-trip with their defaults and validation.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectMqtt, endMqtt, login, request, startSimulator, waitFor, type RunningSimulator } from '../helpers/simulator.ts';

let sim: RunningSimulator;
let token = '';

test.before(async () => {
  sim = await startSimulator({ nodes: 3, seed: 'demo', app: { sampleTimer: false, monitorHistory: false } });
  token = await login(sim.baseUrl);
});

test.after(async () => {
  await sim.close();
});

/** Parses the text exposition format strictly; throws on any malformed line. */
function parseExposition(text: string): Map<string, { type: string; samples: { labels: string; value: number }[] }> {
  const families = new Map<string, { type: string; samples: { labels: string; value: number }[] }>();
  assert.ok(text.endsWith('\n'), 'ends with a newline');
  for (const line of text.slice(0, -1).split('\n')) {
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      assert.not.ok(families.has(type[1]), `family ${type[1]} declared once`);
      families.set(type[1], { type: type[2], samples: [] });
      continue;
    }
    if (line.startsWith('# HELP ')) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*\})? (-?[0-9.e+]+|NaN|\+Inf|-Inf)$/.exec(line);
    if (!sample) throw new Error(`malformed line: ${line}`);
    const family = families.get(sample[1]);
    if (!family) throw new Error(`sample before its TYPE: ${line}`);
    family.samples.push({ labels: sample[2] ?? '', value: Number(sample[3]) });
  }
  return families;
}

const stats = async () => (await request(sim.baseUrl, 'GET', '/api/v5/stats', { token })).json as ({ node: string } & Record<string, number>)[];

test('text format parses and its connection gauge equals /stats, per mode', async () => {
  const a = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'prom-a' });
  await waitFor(async () => (await stats())[0]['connections.count'] === 1, 1000);
  const res = await request(sim.baseUrl, 'GET', '/api/v5/prometheus/stats', { headers: { accept: 'text/plain' } });
  assert.is(res.status, 200);
  assert.match(String(res.headers['content-type']), /^text\/plain/);
  const families = parseExposition(res.text);
  const perNode = await stats();
  assert.is(families.get('emqx_connections_count')!.type, 'gauge');
  assert.is(families.get('emqx_connections_count')!.samples[0].value, perNode[0]['connections.count']);
  assert.is(families.get('emqx_messages_received')!.type, 'counter');

  const aggregated = parseExposition((await request(sim.baseUrl, 'GET', '/api/v5/prometheus/stats?mode=all_nodes_aggregated', { headers: { accept: '*/*' } })).text);
  const total = (await request(sim.baseUrl, 'GET', '/api/v5/stats?aggregate=true', { token })).json['connections.count'];
  assert.ok(total > 1, 'the fixture nodes have connections');
  assert.is(aggregated.get('emqx_connections_count')!.samples[0].value, total);

  const unaggregated = parseExposition((await request(sim.baseUrl, 'GET', '/api/v5/prometheus/stats?mode=all_nodes_unaggregated', { headers: { accept: 'text/plain' } })).text);
  assert.equal(unaggregated.get('emqx_connections_count')!.samples.map((s) => s.labels), perNode.map((n) => `{node="${n.node}"}`));
  assert.equal(unaggregated.get('emqx_connections_count')!.samples.map((s) => s.value), perNode.map((n) => n['connections.count']));
  await endMqtt(a);
});

test('JSON when asked for application/json', async () => {
  const res = await request(sim.baseUrl, 'GET', '/api/v5/prometheus/stats');
  assert.is(res.status, 200);
  assert.is(res.json.stats.emqx_connections_count, (await stats())[0]['connections.count']);
  assert.type(res.json.metrics.emqx_bytes_received, 'number');
});

test('enable_basic_auth guards the scrape endpoint', async () => {
  const put = await request(sim.baseUrl, 'PUT', '/api/v5/prometheus', { token, body: { enable_basic_auth: true } });
  assert.is(put.status, 200);
  assert.is(put.json.enable_basic_auth, true);
  assert.is(put.json.push_gateway.url, 'http://127.0.0.1:9091');
  assert.is((await request(sim.baseUrl, 'GET', '/api/v5/prometheus/stats')).status, 401);
  assert.is((await request(sim.baseUrl, 'GET', '/api/v5/prometheus/stats', { token })).status, 200);
  await request(sim.baseUrl, 'PUT', '/api/v5/prometheus', { token, body: { enable_basic_auth: false } });
  assert.is((await request(sim.baseUrl, 'GET', '/api/v5/prometheus/stats')).status, 200);
});

test('prometheus and opentelemetry configs validate and round-trip', async () => {
  const bad = await request(sim.baseUrl, 'PUT', '/api/v5/prometheus', { token, body: { push_gateway: { interval: 'soon' } } });
  assert.is(bad.status, 400);
  // The body is checked as `root` (emqx_dashboard_swagger.erl check_request_body/5).
  assert.is(JSON.parse(bad.json.message).path, 'root.push_gateway.interval');
  const otel = await request(sim.baseUrl, 'GET', '/api/v5/opentelemetry', { token });
  assert.is(otel.json.exporter.endpoint, 'http://localhost:4317');
  assert.is(otel.json.metrics.interval, '10s');
  const put = await request(sim.baseUrl, 'PUT', '/api/v5/opentelemetry', { token, body: { metrics: { enable: true, interval: '30s' }, logs: { level: 'loud' } } });
  assert.is(put.status, 400);
  assert.is(JSON.parse(put.json.message).path, 'root.logs.level');
  const ok = await request(sim.baseUrl, 'PUT', '/api/v5/opentelemetry', { token, body: { metrics: { enable: true, interval: '30s' } } });
  assert.is(ok.status, 200);
  const again = (await request(sim.baseUrl, 'GET', '/api/v5/opentelemetry', { token })).json;
  assert.equal(again.metrics, { enable: true, interval: '30s' });
  assert.is(again.exporter.endpoint, 'http://localhost:4317');
});

test.run();
