// Builds multipart/form-data bodies (RFC 7578) for upload tests: plugin packages, backup files,
// user import files. The simulator parses them with @fastify/multipart; this side only writes.

export type FormField = string | { filename: string; data: Buffer; contentType?: string };

/** A multipart body and its content type; fields are strings or files. */
export function buildMultipart(fields: Record<string, FormField>): { body: Buffer; contentType: string } {
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
