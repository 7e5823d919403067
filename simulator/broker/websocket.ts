// MQTT over WebSocket at path /mqtt (EMQX's ws listener): upgrades only handshakes that offer an
// MQTT subprotocol (security.md S18) and hands the frames to the broker as a byte stream.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, createWebSocketStream } from 'ws';

// EMQX's default `supported_subprotocols` plus mqttv3.1, which MQTT 3.1 clients offer.
const SUBPROTOCOLS = ['mqtt', 'mqtt-v3', 'mqtt-v3.1.1', 'mqttv3.1'];

// Bounds the memory one frame may take; large enough for the multi-megabyte payloads the
// console's payload viewer is tested with.
const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** The byte streams of MQTT-over-WebSocket connections: each write to one is one binary frame. */
export const webSocketStreams = new WeakSet<object>();

export interface MqttWebSocket {
  /** An `upgrade` listener for any HTTP server. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Terminates every WebSocket connection. */
  close(): void;
}

function reject(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

export function createMqttWebSocket(accept: (stream: Duplex, req: IncomingMessage) => void): MqttWebSocket {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    perMessageDeflate: false,
    handleProtocols: (offered) => SUBPROTOCOLS.find((p) => offered.has(p)) ?? false,
  });

  return {
    handleUpgrade(req, socket, head) {
      const pathname = (req.url ?? '/').split('?')[0];
      if (pathname !== '/mqtt') {
        reject(socket, '404 Not Found');
        return;
      }
      const offered = String(req.headers['sec-websocket-protocol'] ?? '')
        .split(',')
        .map((p) => p.trim());
      if (!offered.some((p) => SUBPROTOCOLS.includes(p))) {
        reject(socket, '400 Bad Request');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        const stream = createWebSocketStream(ws);
        webSocketStreams.add(stream);
        accept(stream, req);
      });
    },
    close() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}
