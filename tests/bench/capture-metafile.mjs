// Preloaded into `node build.mjs` by the benchmark: resolves build.mjs's `esbuild` import to a
// wrapper whose build() also writes the metafile of the real production build to
// $BENCH_METAFILE, so the figures come from that build and not from a second, different one.
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

export async function resolve(specifier, context, next) {
  if (specifier === 'esbuild' && context.parentURL?.endsWith('/build.mjs')) {
    return { url: new URL('./esbuild-capture.mjs', import.meta.url).href, shortCircuit: true };
  }
  return next(specifier, context);
}

// The same file serves as the loader hooks module, which runs off the main thread.
if (isMainThread) register(import.meta.url);
