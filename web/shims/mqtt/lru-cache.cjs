// `lru-cache` as mqtt.js's outgoing topic aliases use it (build/lib/topic-alias-send.js): an
// `LRUCache({ max })` with get (which marks the entry as used), set (which drops the least
// recently used entry beyond `max`), size, clear, and keys() from the most to the least recently
// used. A Map keeps the order, least recently used first.
class LRUCache {
  constructor(options) {
    this.max = options.max;
    this.map = new Map();
  }

  get size() {
    return this.map.size;
  }

  get(key) {
    if (!this.map.has(key)) return undefined;
    const value = this.map.get(key);
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key, value) {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value);
    return this;
  }

  clear() {
    this.map.clear();
  }

  *keys() {
    const keys = [...this.map.keys()];
    for (let i = keys.length - 1; i >= 0; i--) yield keys[i];
  }
}

exports.LRUCache = LRUCache;
