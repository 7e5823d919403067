// esbuild with a build() that saves the metafile to $BENCH_METAFILE (see capture-metafile.mjs).
import { writeFileSync } from 'node:fs';
import * as esbuild from 'esbuild';

export * from 'esbuild';

export async function build(options) {
  const result = await esbuild.build(options);
  if (result.metafile && process.env.BENCH_METAFILE) writeFileSync(process.env.BENCH_METAFILE, JSON.stringify(result.metafile));
  return result;
}
