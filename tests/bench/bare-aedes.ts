// Child process: a bare Aedes broker with no hooks on a free TCP port, the reference the
// simulator's MQTT throughput is compared with. Prints `{"mqtt": port}`.
import net from 'node:net';
import { Aedes } from 'aedes';

const aedes = await Aedes.createBroker();
const server = net.createServer((socket) => aedes.handle(socket));
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ mqtt: (server.address() as net.AddressInfo).port })));
process.on('SIGTERM', () => process.exit(0));
