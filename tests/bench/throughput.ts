// Child process of the MQTT throughput benchmark: publishers send QoS 0 messages to `tp/<k>` and
// subscribers to `tp/+` count what the broker delivers, all speaking MQTT 3.1.1 (or 5.0 with
// --protocol 5). The send side keeps at most --window deliveries outstanding, so the figure is
// what the broker forwards, not what piles up in buffers. Prints `{"rate": deliveries per second, ...}` after --warmup + --seconds.
import net from 'node:net';
import { connect, packetCounter, publish, subscribe, type Level } from './wire.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const port = arg('port', 1883);
const seconds = arg('seconds', 5);
const warmup = arg('warmup', 1);
const publishers = arg('publishers', 4);
const subscribers = arg('subscribers', 2);
const window = arg('window', 4000);
const level = arg('protocol', 4) as Level;

let received = 0;
let sent = 0;
/** Deliveries given up on after a stall (QoS 0 may be dropped); not counted as delivered. */
let forgotten = 0;
const pubs: net.Socket[] = [];

function open(id: string, first: Buffer, until: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    socket.on('error', reject);
    socket.on('data', packetCounter((type) => {
      if (type === until) resolve(socket);
      if (type === 0x30) received++;
    }));
    // Refill as deliveries arrive, once half the window has drained.
    socket.on('data', () => pubs.length === publishers && sent * subscribers - received - forgotten < window / 2 && topUp());
    socket.write(first.length ? Buffer.concat([connect(id, level), first]) : connect(id, level));
  });
}

const stamp = Date.now().toString(36);
for (let s = 0; s < subscribers; s++) await open(`tp-sub-${stamp}-${s}`, subscribe(1, 'tp/+', 0, level), 0x90);
for (let p = 0; p < publishers; p++) pubs.push(await open(`tp-pub-${stamp}-${p}`, Buffer.alloc(0), 0x20));
const packets = pubs.map((_, p) => publish(`tp/${p}`, Buffer.alloc(64, 0x61), level));

// Tops the outstanding deliveries up to the window, in batches written to each publisher.
let stalledSince = 0;
function topUp(): void {
  const outstanding = sent * subscribers - received - forgotten;
  if (outstanding >= window) return;
  const batch = Math.ceil((window - outstanding) / subscribers / publishers);
  for (let p = 0; p < publishers; p++) {
    pubs[p].write(Buffer.concat(new Array(batch).fill(packets[p])));
    sent += batch;
  }
}
let lastReceived = 0;
const ticker = setInterval(() => {
  // QoS 0 may be dropped under pressure: after 200 ms without progress, forget what is missing.
  if (received === lastReceived) {
    if (!stalledSince) stalledSince = Date.now();
    else if (Date.now() - stalledSince > 200) (forgotten = sent * subscribers - received, stalledSince = 0);
  } else stalledSince = 0;
  lastReceived = received;
  topUp();
}, 20);
topUp();

await new Promise((resolve) => setTimeout(resolve, warmup * 1000));
const startCount = received;
const started = performance.now();
await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
const elapsed = (performance.now() - started) / 1000;
const delivered = received - startCount;
clearInterval(ticker);
console.log(JSON.stringify({ rate: delivered / elapsed, delivered, seconds: elapsed, sent, forgotten }));
process.exit(0);
