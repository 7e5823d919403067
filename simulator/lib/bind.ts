// Listener addresses (`bind` of MQTT and gateway listeners): parsing and printing `host:port`,
// where a socket the API opens may listen given the simulator's --host (security.md S28), and the
// sentence for a bind that failed. It opens nothing itself.
import net from 'node:net';

/** `1883`, `:1883`, `0.0.0.0:1883`, `[::]:1883` → host and port; null when malformed. */
export function parseBind(bind: unknown): { host: string; port: number } | null {
  const text = typeof bind === 'number' ? String(bind) : bind;
  if (typeof text !== 'string') return null;
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[0-9A-Za-z.-]*):)?(\d{1,5})$/.exec(text.trim());
  if (!m) return null;
  const port = Number(m[2]);
  if (port > 65535) return null;
  return { host: m[1] ? m[1].replace(/^\[|\]$/g, '') : '0.0.0.0', port };
}

/** `host:port` with an IPv6 host in brackets. */
export function bindText(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);

/**
 * Why a socket may not listen on `host` when the simulator was started with `--host allowed`, or
 * null when it may: the wildcard `0.0.0.0` allows any IPv4 address, `::` any address, `localhost`
 * the loopback addresses, and any other --host only itself. A bind without a host means the
 * wildcard `0.0.0.0`, as in EMQX.
 */
export function bindRefusal(allowed: string, host: string, port: number): string | null {
  const a = allowed.toLowerCase();
  const h = host.toLowerCase();
  if (a === '::' || a === h) return null;
  if (a === '0.0.0.0' && net.isIPv4(h)) return null;
  if (a === 'localhost' && LOOPBACK.has(h)) return null;
  const family = net.isIPv6(a) ? 'IPv6 ' : net.isIPv4(a) ? 'IPv4 ' : '';
  const where = a === '0.0.0.0' ? 'IPv4 addresses' : `${family}address ${allowed}`;
  return `cannot listen on ${bindText(host, port)}: this simulator was started with --host ${allowed}, so the sockets its API opens may listen only on ${where} (e.g. ${bindText(a === '0.0.0.0' ? '127.0.0.1' : allowed, port)})`;
}

/** The sentence for a failed listen on `host:port`, or null for an error that is not the address's fault. */
export function bindFailure(err: unknown, host: string, port: number): string | null {
  const code = (err as NodeJS.ErrnoException)?.code;
  const at = bindText(host, port);
  if (code === 'EADDRINUSE') return `port ${port} on ${host} is already in use (EADDRINUSE); choose another port for ${at}`;
  if (code === 'EACCES') return `port ${port} on ${host} needs privileges this process lacks (EACCES); choose a port above 1023`;
  if (code === 'EADDRNOTAVAIL') return `${host} is not an address of this machine (EADDRNOTAVAIL); choose another host for ${at}`;
  if (code === 'EAFNOSUPPORT') return `this machine has no ${net.isIPv6(host) ? 'IPv6' : 'IPv4'} support for ${at}`;
  return null;
}
