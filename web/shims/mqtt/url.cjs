// Node's legacy `url.parse(text, true)` as mqtt.js's connect() reads it (protocol, hostname,
// port, auth, path, query), done with the browser's URL. Unlike Node it keeps an IPv6 hostname in
// brackets, which is what mqtt.js needs to build the WebSocket URL back (`ws://[::1]:8083/mqtt`).
// Text the URL parser refuses (a host with a space…) is split as written, so the WebSocket
// constructor names the bad URL instead of mqtt.js reporting a missing protocol.
const SCHEME = /^[a-z][a-z\d+.-]*:/i;
const PARTS = /^([a-z][a-z\d+.-]*:)(?:\/\/(?:([^@/?#]*)@)?(\[[^\]]*\]|[^:/?#]*)(?::(\d*))?)?([^#]*)/i;

function query(params) {
  const out = {};
  for (const [key, value] of params) {
    if (!Object.hasOwn(out, key)) out[key] = value;
    else if (Array.isArray(out[key])) out[key].push(value);
    else out[key] = [out[key], value];
  }
  return out;
}

function asWritten(text) {
  const [, protocol, auth, hostname, port, path] = PARTS.exec(text) ?? [];
  const search = path?.includes('?') ? path.slice(path.indexOf('?')) : '';
  return {
    protocol: protocol?.toLowerCase() ?? null, hostname: hostname || null, port: port || null, auth: auth || null,
    path: path || null, query: query(new URLSearchParams(search)),
  };
}

function parse(text) {
  const absolute = SCHEME.test(text);
  let u;
  try {
    u = new URL(text, absolute ? undefined : 'http://relative.invalid');
  } catch {
    return asWritten(text);
  }
  const path = u.pathname + u.search;
  // Only a path from the root is a relative WebSocket URL to mqtt.js; anything else lacks a protocol.
  if (!absolute) return { protocol: null, hostname: null, port: null, auth: null, path: text.startsWith('/') ? path : text, query: query(u.searchParams) };
  const user = decodeURIComponent(u.username);
  const auth = user || u.password ? (u.password ? `${user}:${decodeURIComponent(u.password)}` : user) : null;
  return { protocol: u.protocol, hostname: u.hostname || null, port: u.port || null, auth, path: path || null, query: query(u.searchParams) };
}

exports.parse = parse;
exports.default = { parse };
