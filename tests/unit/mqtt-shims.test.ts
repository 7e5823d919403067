// The stand-ins of web/shims/mqtt/ behave as the packages they replace, for what mqtt.js uses of
// them: the LRU cache of outgoing topic aliases against the real lru-cache mqtt.js depends on, and
// readable-stream's classes, which must be the package's own and all that mqtt.js and bl take.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const require = createRequire(import.meta.url);
type Cache = { get(k: number): unknown; set(k: number, v: string): unknown; clear(): void; keys(): Iterable<number>; size: number };
type CacheClass = new (options: { max: number }) => Cache;
const { LRUCache: Real } = createRequire(require.resolve('mqtt'))('lru-cache') as { LRUCache: CacheClass };
const { LRUCache: Shim } = require('../../web/shims/mqtt/lru-cache.cjs') as { LRUCache: CacheClass };

type Op = { op: 'get'; key: number } | { op: 'set'; key: number; value: string } | { op: 'clear' };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('get' as const), key: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ op: fc.constant('set' as const), key: fc.integer({ min: 1, max: 8 }), value: fc.string({ maxLength: 3 }) }),
  fc.constant({ op: 'clear' as const }),
);

test('the LRU stand-in answers get, size and keys() as lru-cache does, for any sequence of operations', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 5 }), fc.array(op, { maxLength: 60 }), (max, ops) => {
      const real = new Real({ max });
      const shim = new Shim({ max });
      for (const o of ops) {
        if (o.op === 'get') assert.is(shim.get(o.key), real.get(o.key));
        else if (o.op === 'set') {
          shim.set(o.key, o.value);
          real.set(o.key, o.value);
        } else {
          shim.clear();
          real.clear();
        }
        assert.is(shim.size, real.size);
        assert.equal([...shim.keys()], [...real.keys()]);
      }
    }),
    { numRuns: 300 },
  );
});

const STREAM_CLASSES = ['Readable', 'Writable', 'Duplex', 'Transform'];

test('the readable-stream stand-in hands out the package’s own Readable, Writable, Duplex and Transform', () => {
  const real = createRequire(require.resolve('mqtt'))('readable-stream') as Record<string, unknown>;
  const shim = require('../../web/shims/mqtt/readable-stream.cjs') as Record<string, unknown>;
  assert.equal(Object.keys(shim).sort(), [...STREAM_CLASSES].sort());
  for (const name of STREAM_CLASSES) assert.ok(typeof shim[name] === 'function' && shim[name] === real[name], name);
});

test('on its own, without readable-stream’s index loaded, the stand-in’s streams carry Uint8Array chunks as Buffers', () => {
  // A process of its own: here the index is loaded already (the test above) and sets up what the stand-in must.
  const script = `
    const { Readable, Writable, Duplex, Transform } = require(${JSON.stringify(require.resolve('../../web/shims/mqtt/readable-stream.cjs'))});
    const out = [];
    const source = new Readable({ read() {} });
    const upper = new Transform({ transform(chunk, _, done) { done(null, Buffer.from(chunk.toString().toUpperCase())); } });
    const sink = new Writable({ write(chunk, _, done) { out.push([Buffer.isBuffer(chunk), chunk.toString()]); done(); } });
    source.pipe(upper).pipe(sink);
    source.push(new Uint8Array([104, 105]));
    source.push(null);
    sink.on('finish', () => {
      const echo = new Duplex({ read() {}, write(chunk, _, done) { this.push(chunk); done(); } });
      echo.on('data', (chunk) => { out.push([Buffer.isBuffer(chunk), chunk.toString()]); console.log(JSON.stringify(out)); });
      echo.write(new Uint8Array([111, 107]));
    });`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 10_000 });
  assert.is(run.stderr, '');
  assert.equal(JSON.parse(run.stdout), [[true, 'HI'], [true, 'ok']]);
});

test('mqtt.js and bl take nothing else from readable-stream', () => {
  const mqttLib = path.join(path.dirname(require.resolve('mqtt')), 'lib');
  const sources = [
    ...readdirSync(mqttLib, { recursive: true }).filter((f) => String(f).endsWith('.js')).map((f) => path.join(mqttLib, String(f))),
    createRequire(require.resolve('mqtt-packet')).resolve('bl'),
  ];
  const used = new Set<string>();
  for (const file of sources) {
    const code = readFileSync(file, 'utf8');
    if (!code.includes('readable-stream')) continue;
    // mqtt.js's compiled imports (`readable_stream_1.Writable`) and bl's `require('readable-stream').Duplex`.
    for (const m of code.matchAll(/readable_stream_1\.(\w+)|require\('readable-stream'\)\.(\w+)/g)) used.add(m[1] ?? m[2]);
  }
  assert.equal([...used].sort(), [...STREAM_CLASSES].sort());
});

const jsFiles = (dir: string): string[] => readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.js')).map((f) => path.join(dir, f));

test('readable-stream’s parts the build leaves out are ones mqtt.js, mqtt-packet and bl never reach', () => {
  const mqttRequire = createRequire(require.resolve('mqtt'));
  const streams = path.join(path.dirname(path.dirname(mqttRequire.resolve('readable-stream'))), 'internal', 'streams');
  // They are still required under the names build.mjs replaces (STREAMS_LEFT_OUT), from these files only.
  const requiring = readdirSync(streams).filter((f) => /require\('(\.\/from|\.\/duplexify|string_decoder\/)'\)/.test(readFileSync(path.join(streams, f), 'utf8'))).sort();
  assert.equal(requiring, ['duplex.js', 'duplexify.js', 'readable.js']);
  // Nothing asks for what they do: Readable.from, Duplex.from, decoding to strings.
  const mqttLib = path.join(path.dirname(require.resolve('mqtt')), 'lib');
  const packetRoot = path.dirname(mqttRequire.resolve('mqtt-packet'));
  const sources = [
    ...jsFiles(mqttLib),
    ...['parser.js', 'writeToStream.js', 'generate.js', 'mqtt.js', 'packet.js', 'constants.js', 'numbers.js'].map((f) => path.join(packetRoot, f)),
    ...jsFiles(path.dirname(createRequire(path.join(packetRoot, 'package.json')).resolve('bl'))).filter((f) => !f.includes('node_modules') && !/[\\/]test[\\/]/.test(f)),
  ];
  for (const file of sources) {
    const code = readFileSync(file, 'utf8');
    assert.not.match(code, /\b(?:Readable|Duplex|readable_stream_1\.\w+)\.from\(|setEncoding|\bencoding\s*:|StringDecoder|fromWeb|toWeb/, file);
  }
  // Reaching the stand-in anyway says so.
  const leftOut = require('../../web/shims/mqtt/left-out.cjs') as { (): never; StringDecoder: new (enc: string) => unknown };
  assert.throws(() => leftOut(), /not in the console’s mqtt.js bundle/);
  assert.throws(() => new leftOut.StringDecoder('utf8'), /not in the console’s mqtt.js bundle/);
});

test('mqtt-packet uses bl only as a list: the build gives it bl’s BufferList without the stream around it', () => {
  const packetRoot = path.dirname(createRequire(require.resolve('mqtt')).resolve('mqtt-packet'));
  const blMain = createRequire(path.join(packetRoot, 'package.json')).resolve('bl');
  const users = readdirSync(packetRoot).filter((f) => f.endsWith('.js') && /require\('bl'\)/.test(readFileSync(path.join(packetRoot, f), 'utf8')));
  assert.equal(users, ['parser.js']);
  const parser = readFileSync(path.join(packetRoot, 'parser.js'), 'utf8');
  // The list is made by calling bl() and kept in _list, which nothing hands on.
  assert.equal([...parser.matchAll(/\bbl\b(?!')/g)].length, 2, 'bl is required and called, nothing else');
  // Where the list appears other than for a method: made, and shown to the (no-op) logger.
  const whole = parser.split('\n').filter((line) => /this\._list(?!\.)/.test(line)).map((line) => line.trim());
  assert.equal(whole, ['this._list = bl()', "debug('_parsePayload: payload %O', this._list)"]);
  const { BufferList } = require(blMain) as { BufferList: { prototype: object } };
  const used = new Set([...parser.matchAll(/this\._list\.(\w+)/g)].map((m) => m[1]));
  const list = new (BufferList as unknown as new () => object)();
  for (const name of used) assert.ok(name in BufferList.prototype || Object.hasOwn(list, name), name);
});

// build.mjs marks the logging calls of mqtt.js, mqtt-packet and readable-stream pure (MQTT_LOGGING,
// LOG_CALL), so the minifier drops them: right only while each of them reaches a logger that does nothing.
const LOG_CALL = /(?<![\w$.])(this\.log|client\.log|debug)\(/g;

test('the console gives mqtt.js no logger of its own, and the debug stand-in does nothing', async () => {
  const { clientOptions, defaultSettings } = await import('../../web/features/diagnose/websocket/settings.ts');
  for (const protocolVersion of [3, 4, 5] as const) assert.not.ok('log' in clientOptions({ ...defaultSettings(), protocolVersion }, 4000));
  const debug = require('../../web/shims/mqtt/debug.cjs') as (name: string) => ((...args: unknown[]) => unknown) & { enabled: boolean };
  const log = debug('mqttjs:client');
  assert.is(log('connect %o', { a: 1 }), undefined);
  assert.is(log.enabled, false);
});

test('every logging call the build drops goes to mqtt.js’s debug logger or readable-stream’s no-op debuglog', () => {
  const mqttRoot = path.dirname(path.dirname(require.resolve('mqtt')));
  const mqttRequire = createRequire(require.resolve('mqtt'));
  const packetRoot = path.dirname(mqttRequire.resolve('mqtt-packet'));
  const streamsRoot = path.dirname(path.dirname(mqttRequire.resolve('readable-stream'))); // …/readable-stream/lib
  const files = [...jsFiles(path.join(mqttRoot, 'build', 'lib')), ...readdirSync(packetRoot).filter((f) => f.endsWith('.js')).map((f) => path.join(packetRoot, f)), ...jsFiles(streamsRoot)];
  let calls = 0;
  for (const file of files) {
    const code = readFileSync(file, 'utf8');
    const names = new Set([...code.matchAll(LOG_CALL)].map((m) => m[1]));
    calls += [...code.matchAll(LOG_CALL)].length;
    if (names.has('debug')) {
      // The one binding of `debug` in the file: the debug package's logger, or readable-stream's debuglog.
      const bindings = [...code.matchAll(/(?:const|let|var|function)\s+debug\b\s*(=\s*[^;\n]*)?/g)].map((m) => m[1] ?? 'function');
      assert.is(bindings.length, 1, `${file}: ${bindings.join(' | ')}`);
      assert.ok(/^=\s*(?:\(0, debug_1\.default\)\(|require\('debug'\)\(|require\('\.\.\/\.\.\/ours\/util'\)\.debuglog\()/.test(bindings[0]), `${file}: ${bindings[0]}`);
    }
  }
  // this.log and client.log are the client's `log`: the option (never given, above) or debug's logger.
  const assigned = files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\.log\s*=(?!=)\s*([^;\n]*)/g)].map((m) => m[1]));
  assert.equal(assigned, ["this.options.log || (0, debug_1.default)('mqttjs:client')"]);
  // readable-stream's debuglog never hands out a logger that does something.
  const util = readFileSync(path.join(streamsRoot, 'ours', 'util.js'), 'utf8');
  assert.match(util, /debuglog\(\) \{\s*return function \(\) \{\}\s*\}/);
  assert.ok(calls > 200, String(calls));
});

test.run();
