// `readable-stream` as mqtt.js (Readable, Writable, Duplex, Transform) and bl (Duplex) use it: the
// package's own four classes, taken from its modules without the index that also wires in what
// neither uses (the stream operators, pipeline, compose, promises, PassThrough): 4.6 KB gzip.
// The index also gives the base Stream the two helpers readable.js and writable.js call on every
// Uint8Array chunk (lib/stream.js in readable-stream 4.8.0); they are set here the same way.
const { Buffer } = require('buffer');
const { Stream } = require('readable-stream/lib/internal/streams/legacy.js');

Stream._isUint8Array ??= (value) => value instanceof Uint8Array;
Stream._uint8ArrayToBuffer ??= (chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

exports.Readable = require('readable-stream/lib/internal/streams/readable.js');
exports.Writable = require('readable-stream/lib/internal/streams/writable.js');
exports.Duplex = require('readable-stream/lib/internal/streams/duplex.js');
exports.Transform = require('readable-stream/lib/internal/streams/transform.js');
