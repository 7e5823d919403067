// `worker-timers` with the page's own timers. The console asks for `timerVariant: 'native'`; the
// worker variant would start a Worker from a blob: URL, which the console's CSP forbids.
exports.setInterval = (fn, ms) => globalThis.setInterval(fn, ms);
exports.clearInterval = (id) => globalThis.clearInterval(id);
exports.setTimeout = (fn, ms) => globalThis.setTimeout(fn, ms);
exports.clearTimeout = (id) => globalThis.clearTimeout(id);
