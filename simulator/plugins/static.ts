// Serves the built console as EMQX serves its dashboard folder (www/) on port 18083, and only
// that (emqx_dashboard.erl `static_dispatch`, v5.5.1 and v5.8.9): "/" is index.html,
// "/static/[...]" is the static/ folder, and "/editor.worker.js", "/json.worker.js" and "/version"
// are files at the top. Any other path is a 404 (emqx_dashboard_not_found, plugins/errors.ts),
// even for a file that is there, so a build that names a file elsewhere fails here as it would
// on the broker. Content-hashed assets may be cached for a year; index.html and anything unhashed
// is revalidated on every load so a new build is picked up at once.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

// esbuild names chunks like `main-5XKQ3M2A.js`: a dash and 8 base32 characters.
const HASHED = /-[A-Z0-9]{8}\.[a-z0-9]+$/;
/** The files EMQX serves from the top of its dashboard folder besides index.html. */
const TOP_FILES = ['editor.worker.js', 'json.worker.js', 'version'];

function cacheControl(file: string): string {
  return HASHED.test(path.basename(file)) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** Registers the console's routes for `dir`; does nothing when the folder is missing. */
export async function staticPlugin(app: FastifyInstance, dir: string): Promise<void> {
  if (!existsSync(dir)) return;
  const root = path.resolve(dir);
  await app.register(fastifyStatic, {
    root: path.join(root, 'static'),
    prefix: '/static/',
    index: false,
    cacheControl: false,
    dotfiles: 'deny',
    setHeaders: (reply, file) => {
      reply.header('cache-control', cacheControl(file));
    },
  });
  const top = (file: string) => app.get(file === 'index.html' ? '/' : `/${file}`, (_request, reply) =>
    reply.header('cache-control', cacheControl(file)).sendFile(file, root));
  for (const file of ['index.html', ...TOP_FILES]) if (existsSync(path.join(root, file))) top(file);
}
