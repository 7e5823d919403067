// A small multipart/form-data body parser (RFC 7578) for the upload endpoints (plugin packages,
// backup files). Registered inside one route plugin, it only affects that plugin's routes; the
// body becomes `{ <field>: { filename?, contentType?, data } }`, all in memory under a size cap.
import type { FastifyInstance } from 'fastify';
import { apiError } from './errors.ts';

export interface FormPart {
  filename?: string;
  contentType?: string;
  data: Buffer;
}

export type FormBody = Record<string, FormPart>;

function boundaryOf(contentType: string): string | null {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : null;
}

function headerParam(value: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|;)\\s*${name}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(value)
    ?? new RegExp(`(?:^|;)\\s*${name}=([^;\\s]+)`, 'i').exec(value);
  return match ? match[1].replace(/\\(.)/g, '$1') : undefined;
}

/** Splits a multipart body into its named parts; throws a 400 BAD_FORM_DATA when malformed. */
export function parseMultipart(body: Buffer, contentType: string): FormBody {
  const boundary = boundaryOf(contentType);
  if (!boundary) throw apiError(400, 'BAD_FORM_DATA', 'multipart boundary missing');
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: FormBody = {};
  let pos = body.indexOf(delimiter);
  if (pos === -1) throw apiError(400, 'BAD_FORM_DATA', 'malformed multipart body');
  for (;;) {
    pos += delimiter.length;
    if (body.subarray(pos, pos + 2).toString() === '--') break;
    // Skip the CRLF after the delimiter.
    pos += 2;
    const headerEnd = body.indexOf('\r\n\r\n', pos);
    if (headerEnd === -1) throw apiError(400, 'BAD_FORM_DATA', 'malformed multipart body');
    const headers = body.subarray(pos, headerEnd).toString('utf8').split('\r\n');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headerEnd + 4);
    if (next === -1) throw apiError(400, 'BAD_FORM_DATA', 'malformed multipart body (no closing boundary)');
    const part: FormPart = { data: body.subarray(headerEnd + 4, next) };
    let name: string | undefined;
    for (const line of headers) {
      const colon = line.indexOf(':');
      if (colon === -1) continue;
      const key = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (key === 'content-disposition') {
        name = headerParam(value, 'name');
        part.filename = headerParam(value, 'filename');
      } else if (key === 'content-type') {
        part.contentType = value;
      }
    }
    if (name !== undefined) parts[name] = part;
    pos = next + 2;
  }
  return parts;
}

/** Registers the parser on `app` (and the routes registered in it) with a body cap. */
export function multipartPlugin(app: FastifyInstance, bodyLimit: number): void {
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit }, (request, body, done) => {
    try {
      done(null, parseMultipart(body as Buffer, String(request.headers['content-type'] ?? '')));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}

/** Builds a multipart body (for tests and scripts): fields are strings or files. */
export function buildMultipart(fields: Record<string, string | { filename: string; data: Buffer; contentType?: string }>): { body: Buffer; contentType: string } {
  const boundary = `----sim${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\n`
        + `Content-Type: ${value.contentType ?? 'application/octet-stream'}\r\n\r\n`), value.data, Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
