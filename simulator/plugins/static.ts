// Serves the built console (dist/) at `/` when the folder exists, as EMQX serves its dashboard
// from port 18083. Content-hashed assets may be cached for a year; index.html and anything
// unhashed is revalidated on every load so a new build is picked up at once.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

// esbuild names chunks like `main-5XKQ3M2A.js`: a dash and 8 base32 characters.
const HASHED = /-[A-Z0-9]{8}\.[a-z0-9]+$/;

function cacheControl(file: string): string {
  return HASHED.test(path.basename(file)) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** Registers the static file server for `dir`; does nothing when the folder is missing. */
export async function staticPlugin(app: FastifyInstance, dir: string): Promise<void> {
  if (!existsSync(dir)) return;
  await app.register(fastifyStatic, {
    root: path.resolve(dir),
    prefix: '/',
    index: ['index.html'],
    cacheControl: false,
    dotfiles: 'deny',
    setHeaders: (reply, file) => {
      reply.header('cache-control', cacheControl(file));
    },
  });
}
