// The `debug` package as a no-op: mqtt.js and mqtt-packet log through it, and the console never
// turns that logging on.
function noop() {}
noop.enabled = false;
noop.extend = () => noop;

module.exports = function debug() {
  return noop;
};
