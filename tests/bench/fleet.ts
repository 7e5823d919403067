// Child process of the benchmark: holds N idle MQTT clients on raw sockets, each
// subscribed to its own `bench/<i>/#`. Prints `{"connected":n}` once every CONNACK and SUBACK is
// in (or after 120 s; a refused connection is retried); on the stdin line `leave` it closes them
// all and prints `{"left":true}`.
//   node --import tsx/esm tests/bench/fleet.ts --port P --clients N [--host H] [--prefix P]
import net from 'node:net';
import { connect, packetCounter, subscribe } from './wire.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
};
const port = Number(arg('port', '1883'));
const host = arg('host', '127.0.0.1');
const count = Number(arg('clients', '1000'));
const prefix = arg('prefix', 'bench');

const sockets: net.Socket[] = [];
let acked = 0;
let errors = 0;
let leaving = false;
let finish: () => void = () => undefined;
const done = new Promise<void>((resolve) => (finish = resolve));
setTimeout(finish, 120_000);

/** Opens client i; a connection refused or reset before its SUBACK (a full backlog) is retried. */
function open(i: number, attempt = 0): void {
  let subscribed = false;
  const socket = net.connect(port, host);
  socket.setNoDelay(true);
  socket.on('error', () => errors++);
  socket.on('close', () => {
    if (!subscribed && !leaving && attempt < 5) setTimeout(() => open(i, attempt + 1), 200 * (attempt + 1));
  });
  socket.on('data', packetCounter((type) => {
    if (type !== 0x90 || subscribed) return;
    subscribed = true;
    if (++acked >= count) finish();
  }));
  socket.write(Buffer.concat([connect(`${prefix}-${i}`), subscribe(1, `${prefix}/${i}/#`, 1)]));
  sockets[i] = socket;
}

// All connects are queued at once; those the listen backlog refuses are retried by open().
for (let i = 0; i < count; i++) open(i);
await done;
console.log(JSON.stringify({ connected: acked, errors }));

process.stdin.setEncoding('utf8');
process.stdin.on('data', (line: string) => {
  if (line.includes('leave')) {
    leaving = true;
    for (const socket of sockets) socket?.destroy();
    console.log(JSON.stringify({ left: true }));
  }
});
process.stdin.on('end', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
