// Issue #33, "request bodies have no timeout" (security.md S25): a request's headers and its whole
// body have deadlines, as the broker's HTTP server (cowboy) has, so a client that sends one byte
// now and then is cut off instead of holding a connection open for ever. The deadlines are
// shortened by the httpTimeouts option here; the defaults are 5 s and 60 s.
import net from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { login, request, startSimulator, type RunningSimulator } from '../helpers/simulator.ts';

let sim: RunningSimulator;
let token = '';

test.before(async () => {
  sim = await startSimulator({ nodes: 1, app: { httpTimeouts: { headersMs: 600, requestMs: 1200 } } });
  token = await login(sim.baseUrl);
});

test.after(async () => {
  await sim.close();
});

/**
 * Opens a raw connection, writes `head` and then one byte of `drip` every `everyMs`; resolves
 * with what the server answered and how long until it closed the connection.
 */
function slowClient(head: string, drip: string, everyMs: number): Promise<{ answer: string; closedAfterMs: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(sim.http, '127.0.0.1');
    let answer = '';
    let i = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (i < drip.length && !socket.destroyed) socket.write(drip[i++]);
      }, everyMs);
    });
    socket.on('data', (chunk) => { answer += chunk.toString(); });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, closedAfterMs: Date.now() - started });
    });
    // The test itself never waits longer than this.
    setTimeout(() => socket.destroy(), 8000).unref();
  });
}

test('S25: a body sent one byte at a time is cut off at the request deadline, and the API keeps answering', async () => {
  const body = JSON.stringify({ as: 'clientid', who: 'slow-body-client' });
  const head = `POST /api/v5/banned HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
  const { answer, closedAfterMs } = await slowClient(head, body, 300);
  assert.ok(closedAfterMs < 4000, `the connection stayed open ${closedAfterMs} ms`);
  assert.match(answer, /^HTTP\/1\.1 408/);
  const banned = await request(sim.baseUrl, 'GET', '/api/v5/banned', { token });
  assert.is(banned.status, 200);
  assert.is(banned.json.meta.count, 0, 'the cut-off request changed nothing');
});

test('S25: headers sent one byte at a time are cut off at the headers deadline', async () => {
  const head = 'GET /api/v5/nodes HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ';
  const { answer, closedAfterMs } = await slowClient(head, 'x'.repeat(100), 200);
  assert.ok(closedAfterMs < 3000, `the connection stayed open ${closedAfterMs} ms`);
  assert.match(answer, /^HTTP\/1\.1 408/);
  assert.is((await request(sim.baseUrl, 'GET', '/status')).status, 200);
});

test('a normal request well inside the deadlines is answered', async () => {
  const res = await request(sim.baseUrl, 'POST', '/api/v5/banned', { token, body: { as: 'clientid', who: 'quick' } });
  assert.is(res.status, 200, res.text);
  assert.is((await request(sim.baseUrl, 'DELETE', '/api/v5/banned/clientid/quick', { token })).status, 204);
});

test.run();
