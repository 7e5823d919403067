// MQTT over WebSocket as EMQX's ws listener takes it (emqx_ws_connection.erl v5.5.1 init/2, the
// same at v5.8.9 and 6.2.2), with the listener's `websocket` settings: the handshake must ask for
// `mqtt_path`; with check_origin_enable an Origin outside check_origins is refused 403 (an absent
// one unless allow_origin_absence); the subprotocol answered is the client's first offer that
// supported_subprotocols lists (none listed: 400; none offered: 400 while fail_if_no_subprotocol,
// security.md S18). The WebSocket endpoint on the console's own HTTP port also refuses an Origin
// other than the page's own, whatever the setting: a page elsewhere could reach it from an
// operator's browser. Accepted connections hand their frames to the broker as a byte stream.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, createWebSocketStream } from 'ws';

/** The `websocket` settings of a ws listener that the handshake reads. */
export interface WebSocketSettings {
  mqtt_path: string;
  fail_if_no_subprotocol: boolean;
  supported_subprotocols: string;
  check_origin_enable: boolean;
  allow_origin_absence: boolean;
  check_origins: string;
}

/** The schema's defaults (emqx_schema.erl fields("websocket")), for a listener that lacks the settings. */
export const WEBSOCKET_DEFAULTS: Readonly<WebSocketSettings> = Object.freeze({
  mqtt_path: '/mqtt',
  fail_if_no_subprotocol: true,
  supported_subprotocols: 'mqtt, mqtt-v3, mqtt-v3.1.1, mqtt-v5',
  check_origin_enable: false,
  allow_origin_absence: true,
  check_origins: 'http://localhost:18083, http://127.0.0.1:18083',
});

/** What a handshake is judged by: its listener's settings, and whether it came to the HTTP port. */
export interface Handshake {
  settings: WebSocketSettings;
  /** The console's own port: only the page's own origin (or none) may open a connection. */
  sameOriginOnly: boolean;
}

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
  // A peer that resets the connection meanwhile must not raise an unheard error.
  socket.on('error', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** A comma-separated setting (`"mqtt, mqtt-v3"`) as its items. */
function list(value: string): string[] {
  return value.split(',').map((item) => item.trim()).filter((item) => item !== '');
}

/** emqx_ws_connection check_origin_header / parse_header_fun_origin. */
function originRefused(req: IncomingMessage, { settings, sameOriginOnly }: Handshake): boolean {
  const origin = req.headers.origin;
  if (sameOriginOnly && origin !== undefined) {
    let host: string | null = null;
    try {
      host = new URL(origin).host;
    } catch {
      host = null;
    }
    if (host === null || host !== req.headers.host) return true;
  }
  if (!settings.check_origin_enable) return false;
  if (origin === undefined) return !settings.allow_origin_absence;
  return !list(settings.check_origins).includes(origin);
}

export function createMqttWebSocket(accept: (stream: Duplex, req: IncomingMessage) => void, handshakeOf: (req: IncomingMessage) => Handshake): MqttWebSocket {
  // The subprotocol chosen for each handshake, answered by handleProtocols.
  const chosen = new WeakMap<IncomingMessage, string>();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    perMessageDeflate: false,
    handleProtocols: (_offered, req) => chosen.get(req) ?? false,
  });

  return {
    handleUpgrade(req, socket, head) {
      const handshake = handshakeOf(req);
      const pathname = (req.url ?? '/').split('?')[0];
      if (pathname !== handshake.settings.mqtt_path) {
        reject(socket, '404 Not Found');
        return;
      }
      if (originRefused(req, handshake)) {
        reject(socket, '403 Forbidden');
        return;
      }
      const header = req.headers['sec-websocket-protocol'];
      if (header === undefined) {
        if (handshake.settings.fail_if_no_subprotocol) {
          reject(socket, '400 Bad Request');
          return;
        }
      } else {
        // pick_subprotocol: the first the client offers that the listener supports.
        const supported = list(handshake.settings.supported_subprotocols);
        const pick = list(header).find((offer) => supported.includes(offer));
        if (pick === undefined) {
          reject(socket, '400 Bad Request');
          return;
        }
        chosen.set(req, pick);
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
