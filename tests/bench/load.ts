// Live traffic for the console: N MQTT clients over TCP that each subscribe to their own topic
// tree and publish to it every second. `npm run load -- --clients 200 [--host H] [--port P]
// [--seconds S] [--interval MS]`. It stops by itself after --seconds (default 300) or on Ctrl-C.
import mqtt, { type MqttClient } from 'mqtt';

function flag(name: string, fallback: number | string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : String(fallback);
}

const clients = Math.min(10_000, Math.max(1, Number(flag('clients', 50))));
const host = flag('host', '127.0.0.1');
const port = Number(flag('port', 1883));
const seconds = Math.min(3600, Math.max(1, Number(flag('seconds', 300))));
const interval = Math.max(100, Number(flag('interval', 1000)));

const connections: MqttClient[] = [];
let published = 0;
let received = 0;
let failed = 0;

for (let i = 0; i < clients; i++) {
  const client = mqtt.connect({ host, port, protocol: 'mqtt', clientId: `load-${i}`, reconnectPeriod: 0, connectTimeout: 10_000 });
  client.on('connect', () => client.subscribe(`load/${i}/#`, { qos: 1 }));
  client.on('message', () => received++);
  client.on('error', () => failed++);
  connections.push(client);
  // Spread the connects so a large N does not arrive as one burst.
  if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 50));
}

const publisher = setInterval(() => {
  connections.forEach((client, i) => {
    if (!client.connected) return;
    client.publish(`load/${i}/data`, JSON.stringify({ t: Date.now(), v: Math.round(Math.random() * 1000) / 10 }), { qos: i % 2 as 0 | 1 });
    published++;
  });
}, interval);

const reporter = setInterval(() => {
  const up = connections.filter((c) => c.connected).length;
  console.log(`connected ${up}/${clients}  published ${published}  received ${received}  errors ${failed}`);
}, 5000);

async function stop() {
  clearInterval(publisher);
  clearInterval(reporter);
  await Promise.all(connections.map((c) => c.endAsync().catch(() => undefined)));
  console.log(`done: published ${published}, received ${received}`);
  process.exit(0);
}
setTimeout(stop, seconds * 1000);
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
