// What readable-stream offers and mqtt.js never reaches, left out of its bundle (README.md):
// `Readable.from` (./from), `Duplex.from` (./duplexify) and string decoding (`string_decoder`,
// for `setEncoding` and the `encoding` option). Reaching one says so instead of failing quietly.
function leftOut() {
  throw new Error('not in the console’s mqtt.js bundle: Readable.from, Duplex.from and string decoding (web/shims/mqtt/README.md)');
}

module.exports = leftOut;
module.exports.StringDecoder = leftOut;
