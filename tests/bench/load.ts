// Live traffic for the console: N MQTT clients over TCP with a mix a real fleet has, publishing at
// an overall rate and printing what they published and received per second, so the console's
// rates can be compared. It stops by itself after --seconds (default 300) or on Ctrl-C.
//
//   npm run load -- --clients 200 --rate 500 [--seconds S] [--host H] [--port P]
//                   [--persistent 0.2] [--churn 5] [--report 5]
//   npm run load -- --sessions 2000 [--prefix stale-] [--host H] [--port P]
//
// Each client subscribes to its own tree `load/<i>/#`; every twentieth also to the wildcard
// `load/+/status`. A fifth (--persistent) keep their session (clean session off). Messages are
// QoS 0 (60 %), 1 (30 %) or 2 (10 %); one in twenty is a retained status update, and every client
// retains `online` on connect with a retained `offline` will. Every 10 s, --churn clients
// disconnect and come back a second later.
// With --sessions N it instead leaves N disconnected persistent sessions behind (clients
// `<prefix><i>` that connect with clean session off, subscribe to `<prefix><i>/#` and disconnect),
// then exits: material for the Clients screen's session clean-up.
import mqtt, { type MqttClient } from 'mqtt';

function flag(name: string, fallback: number | string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : String(fallback);
}

function bounded(name: string, fallback: number, min: number, max: number): number {
  const value = Number(flag(name, fallback));
  return Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
}

const clients = Math.round(bounded('clients', 50, 1, 10_000));
const rate = bounded('rate', clients, 0, 50_000);
const seconds = bounded('seconds', 300, 1, 3600);
const persistentShare = bounded('persistent', 0.2, 0, 1);
const churn = Math.round(bounded('churn', Math.min(5, Math.ceil(clients / 10)), 0, clients));
const reportEvery = Math.round(bounded('report', 5, 1, 60));
const host = flag('host', '127.0.0.1');
const port = Number(flag('port', 1883));

if (process.argv.includes('--sessions')) {
  const count = Math.round(bounded('sessions', 100, 1, 100_000));
  const prefix = flag('prefix', 'stale-');
  let made = 0;
  let errors = 0;
  const one = (i: number) => new Promise<void>((resolve) => {
    const client = mqtt.connect({ host, port, protocol: 'mqtt', protocolVersion: 4, clientId: `${prefix}${i}`, clean: false, reconnectPeriod: 0, connectTimeout: 10_000 });
    const done = (ok: boolean) => {
      if (ok) made++;
      else errors++;
      client.end(!ok, {}, () => resolve());
    };
    client.once('connect', () => client.subscribe(`${prefix}${i}/#`, { qos: 1 }, (err) => done(!err)));
    client.once('error', () => done(false));
  });
  // 50 at a time, so the sessions arrive in a few seconds without one burst of thousands.
  for (let i = 0; i < count; i += 50) await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, k) => one(i + k)));
  console.log(`sessions: ${made} disconnected persistent sessions ${prefix}0…${prefix}${count - 1} against ${host}:${port}, errors ${errors}`);
  process.exit(errors ? 1 : 0);
}

const connections: (MqttClient | null)[] = new Array(clients).fill(null);
let published = 0;
let received = 0;
let retainedSent = 0;
let failed = 0;
let reconnects = 0;
let stopping = false;
const perQos = [0, 0, 0];

const statusTopic = (i: number) => `load/${i}/status`;

function open(i: number): void {
  const clean = i >= Math.round(clients * persistentShare);
  const client = mqtt.connect({
    host, port, protocol: 'mqtt', protocolVersion: 4, clientId: `load-${i}`, clean,
    reconnectPeriod: 0, connectTimeout: 10_000, keepalive: 30,
    will: { topic: statusTopic(i), payload: Buffer.from('offline'), qos: 1, retain: true },
  });
  client.on('connect', (connack) => {
    // A resumed persistent session still has its subscriptions [MQTT-3.2.2-2].
    if (!connack.sessionPresent) {
      const filters: Record<string, { qos: 0 | 1 | 2 }> = { [`load/${i}/#`]: { qos: 1 } };
      if (i % 20 === 0) filters['load/+/status'] = { qos: 0 };
      client.subscribe(filters);
    }
    client.publish(statusTopic(i), 'online', { qos: 1, retain: true });
  });
  client.on('message', () => received++);
  client.on('error', () => failed++);
  connections[i] = client;
}

console.log(`load: ${clients} clients (${Math.round(clients * persistentShare)} persistent), ${rate} msg/s for ${seconds} s against ${host}:${port}`);
for (let i = 0; i < clients; i++) {
  open(i);
  // Spread the connects so a large N does not arrive as one burst.
  if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 50));
}

// Publishes in 100 ms slices, carrying the fraction over so the overall rate is exact.
let next = 0;
let credit = 0;
const publisher = setInterval(() => {
  credit += rate / 10;
  let budget = Math.floor(credit);
  credit -= budget;
  for (let tries = 0; budget > 0 && tries < clients; tries++) {
    const i = next;
    next = (next + 1) % clients;
    const client = connections[i];
    if (!client?.connected) continue;
    const n = published + 1;
    const retain = n % 20 === 0;
    const qos = (n % 10 < 6 ? 0 : n % 10 < 9 ? 1 : 2) as 0 | 1 | 2;
    const topic = retain ? statusTopic(i) : `load/${i}/data`;
    const payload = retain ? 'online' : JSON.stringify({ t: Date.now(), v: Math.round(Math.random() * 1000) / 10 });
    client.publish(topic, payload, { qos, retain });
    published++;
    perQos[qos]++;
    if (retain) retainedSent++;
    budget--;
    tries = -1;
  }
}, 100);

// Every 10 s a few clients drop their connection and come back a second later.
const churner = setInterval(() => {
  for (let k = 0; k < churn; k++) {
    const i = Math.floor(Math.random() * clients);
    const client = connections[i];
    if (!client) continue;
    connections[i] = null;
    client.end(false, {}, () => {
      if (stopping) return;
      setTimeout(() => {
        if (stopping) return;
        reconnects++;
        open(i);
      }, 1000);
    });
  }
}, 10_000);

let lastPublished = 0;
let lastReceived = 0;
let elapsed = 0;
const reporter = setInterval(() => {
  elapsed += reportEvery;
  const up = connections.filter((c) => c?.connected).length;
  const pubRate = (published - lastPublished) / reportEvery;
  const recvRate = (received - lastReceived) / reportEvery;
  lastPublished = published;
  lastReceived = received;
  console.log(
    `${String(elapsed).padStart(5)}s  published ${pubRate.toFixed(1)}/s  received ${recvRate.toFixed(1)}/s  ` +
      `connected ${up}/${clients}  total published ${published} (qos0 ${perQos[0]}, qos1 ${perQos[1]}, qos2 ${perQos[2]}, retained ${retainedSent})  ` +
      `reconnects ${reconnects}  errors ${failed}`,
  );
}, reportEvery * 1000);

async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  clearInterval(publisher);
  clearInterval(churner);
  clearInterval(reporter);
  await Promise.all(connections.map((c) => c?.endAsync().catch(() => undefined)));
  console.log(`done: published ${published}, received ${received}, reconnects ${reconnects}, errors ${failed}`);
  process.exit(0);
}
setTimeout(stop, seconds * 1000);
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
