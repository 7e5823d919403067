// The WebSocket handshake as EMQX's ws listener answers it (emqx_ws_connection.erl v5.5.1 init/2,
// the same at v5.8.9 and 6.2.2; security.md S18), with the listener's `websocket` settings: the
// client's first offered subprotocol that supported_subprotocols lists (default `mqtt, mqtt-v3,
// mqtt-v3.1.1, mqtt-v5`), 400 when none or none offered (fail_if_no_subprotocol), 403 for an
// Origin outside check_origins once check_origin_enable is on; and the console's own port never
// opens MQTT for a page of another origin, whatever the setting.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { login, request, startSimulator, type RunningSimulator } from '../helpers/simulator.ts';
import { CONNACK, connackCode, connectPacket, RawMqtt } from '../helpers/raw-mqtt.ts';

let sim: RunningSimulator;
let token = '';

test.before(async () => {
  sim = await startSimulator({ app: { emqxVersion: '5.5.1' } });
  token = await login(sim.baseUrl);
});

test.after.each(async () => {
  await websocket({
    supported_subprotocols: 'mqtt, mqtt-v3, mqtt-v3.1.1, mqtt-v5', fail_if_no_subprotocol: true,
    check_origin_enable: false, allow_origin_absence: true, check_origins: 'http://localhost:18083, http://127.0.0.1:18083',
  });
});

test.after(async () => {
  await sim.close();
});

async function websocket(settings: Record<string, unknown>): Promise<void> {
  const res = await request(sim.baseUrl, 'PUT', '/api/v5/listeners/ws:default', { token, body: { id: 'ws:default', type: 'ws', websocket: settings } });
  assert.is(res.status, 200, res.text);
}

/** The handshake's outcome: 101 with the subprotocol answered (after a CONNACK 0), or the refusal's status. */
async function handshake(protocols: string[], headers: Record<string, string> = {}, port = sim.ws): Promise<{ status: number; protocol?: string }> {
  try {
    const raw = await RawMqtt.ws(`ws://127.0.0.1:${port}/mqtt`, protocols, { headers });
    raw.write(connectPacket({ clientId: `ws-${Math.random().toString(36).slice(2)}` }));
    const connack = await raw.next(CONNACK);
    assert.is(connack && connackCode(connack), 0);
    raw.end();
    return { status: 101, protocol: raw.protocol };
  } catch (err) {
    return { status: (err as { status?: number }).status ?? 0 };
  }
}

test('the default subprotocols are EMQX\'s: mqtt-v5 is taken, mqttv3.1 refused', async () => {
  for (const protocol of ['mqtt', 'mqtt-v3', 'mqtt-v3.1.1', 'mqtt-v5']) assert.equal(await handshake([protocol]), { status: 101, protocol });
  assert.equal(await handshake(['mqttv3.1']), { status: 400 });
  assert.equal(await handshake(['chat']), { status: 400 });
  assert.equal(await handshake([]), { status: 400 }, 'fail_if_no_subprotocol');
});

test('the answer is the client\'s first supported offer, not the server\'s pick (pick_subprotocol)', async () => {
  assert.equal(await handshake(['chat', 'mqtt-v5', 'mqtt']), { status: 101, protocol: 'mqtt-v5' });
  assert.equal(await handshake(['mqtt-v3.1.1', 'mqtt']), { status: 101, protocol: 'mqtt-v3.1.1' });
});

test('the listener\'s supported_subprotocols and fail_if_no_subprotocol apply to the next handshake', async () => {
  await websocket({ supported_subprotocols: 'mqttv3.1, mqtt', fail_if_no_subprotocol: false });
  assert.equal(await handshake(['mqttv3.1']), { status: 101, protocol: 'mqttv3.1' });
  assert.equal(await handshake(['mqtt-v5']), { status: 400 });
  assert.equal(await handshake([]), { status: 101, protocol: '' });
});

test('check_origin_enable refuses an Origin outside check_origins with 403; off, any Origin is taken', async () => {
  assert.is((await handshake(['mqtt'], { origin: 'http://evil.example' })).status, 101, 'off by default, as in EMQX');
  await websocket({ check_origin_enable: true, check_origins: 'http://console.example:18083, http://127.0.0.1:18083' });
  assert.is((await handshake(['mqtt'], { origin: 'http://evil.example' })).status, 403);
  assert.is((await handshake(['mqtt'], { origin: 'http://console.example:18083' })).status, 101);
  assert.is((await handshake(['mqtt'])).status, 101, 'allow_origin_absence');
  await websocket({ check_origin_enable: true, allow_origin_absence: false });
  assert.is((await handshake(['mqtt'])).status, 403);
});

test('no page of another origin opens MQTT through the console\'s own port, whatever the setting', async () => {
  const refused = await handshake(['mqtt'], { origin: 'http://evil.example' }, sim.http);
  assert.ok(refused.status === 403 || refused.status === 404, `status ${refused.status}`);
  const own = `http://127.0.0.1:${sim.http}`;
  assert.ok([101, 404].includes((await handshake(['mqtt'], { origin: own }, sim.http)).status));
});

test.run();
