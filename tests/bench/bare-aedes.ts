// Child process: a bare Aedes broker with no hooks on a free TCP port, the reference the
// simulator's MQTT throughput is compared with. Prints `{"mqtt": port}`.
import net from 'node:net';
import { Aedes } from 'aedes';

const aedes = await Aedes.createBroker();
// The same socket option as the simulator's MQTT listener (EMQX's default tcp_options.nodelay =
// true): without it the kernel coalesces the small PUBLISH writes (Nagle) and the ratio would
// compare TCP settings rather than the simulator's hooks.
const server = net.createServer((socket) => {
  socket.setNoDelay(true);
  aedes.handle(socket);
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ mqtt: (server.address() as net.AddressInfo).port })));
process.on('SIGTERM', () => process.exit(0));
