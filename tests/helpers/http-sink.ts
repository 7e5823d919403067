// A local HTTP server on a free loopback port that records every request (method, path, headers,
// body) and answers 200 "ok": the far end of the HTTP connectors, actions and webhooks tests make.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface HttpSink {
  port: number;
  /** Every request so far, oldest first. */
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startHttpSink(): Promise<HttpSink> {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
