// File uploads for the routes that take one (plugin packages, backup files, user import files),
// on @fastify/multipart. Registered inside one route plugin, so no other route parses multipart;
// the body becomes `{ <field>: { filename, data } | string }` under hard caps (security.md S10,
// S21): one file of at most `maxFileBytes`, a few small text fields. A malformed body is a 400
// BAD_FORM_DATA, a file over the cap a 413; nothing is written to disk.
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { ApiError, apiError } from './errors.ts';

export interface UploadedFile {
  filename: string;
  data: Buffer;
}

export type UploadBody = Record<string, UploadedFile | string>;

const FIELDS = 16;

// @fastify/multipart's own errors carry a 4xx status (limits 413, prototype names 400) and keep
// it; busboy's parse errors carry none and are the client's fault, not a 500.
function formError(err: unknown): unknown {
  if (err instanceof ApiError) return err;
  const status = (err as { statusCode?: number }).statusCode;
  if (status !== undefined && status >= 400 && status < 500) return err;
  return apiError(400, 'BAD_FORM_DATA', `malformed multipart body (${(err as Error).message})`);
}

/** Registers multipart parsing on `app` (one route plugin) with its caps; await it before adding routes. */
export async function uploadPlugin(app: FastifyInstance, maxFileBytes: number): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: maxFileBytes, files: 1, fields: FIELDS, parts: FIELDS + 1, fieldSize: 64 * 1024, headerPairs: 100 },
  });
  app.addHook('preValidation', async (request) => {
    if (!request.isMultipart()) return;
    const body: UploadBody = Object.create(null);
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') body[part.fieldname] = { filename: part.filename, data: await part.toBuffer() };
        else body[part.fieldname] = String(part.value);
      }
    } catch (err) {
      throw formError(err);
    }
    request.body = body;
  });
}

/** The file sent in `field`, or null when the form has none there. */
export function uploadedFile(body: unknown, field: string): UploadedFile | null {
  const value = (body as UploadBody | undefined)?.[field];
  return value && typeof value === 'object' && Buffer.isBuffer(value.data) ? value : null;
}
