// Schema registry functions (part 2 §5.5): schema_decode, schema_encode and schema_check with the
// registry's compiled Avro, Protobuf and JSON schemas, found through the evaluation context.
import { EvalError, str } from '../values.ts';
import { def, type FnContext, type FnGroup } from './registry.ts';

/** Payload bytes: binaries as they are, text as UTF-8. */
function bytes(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  throw new EvalError('payload must be a binary');
}

function codecOf(ctx: FnContext, name: unknown) {
  const codec = ctx.schemas?.(str(name));
  if (!codec) throw new EvalError(`{schema_not_found, ${str(name)}}`);
  return codec;
}

/** Runs a codec call; a library error makes the rule fail like EMQX's serde errors. */
function guarded<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof EvalError) throw err;
    throw new EvalError(`{${what}_failure, ${(err as Error).message}}`);
  }
}

export const schemaFunctions: FnGroup = {
  schema_decode: def(2, 3, ([name, payload, messageType], ctx) => {
    const codec = codecOf(ctx, name);
    return guarded('decode', () => codec.decode(bytes(payload), messageType === undefined ? undefined : str(messageType)));
  }),
  schema_encode: def(2, 3, ([name, term, messageType], ctx) => {
    const codec = codecOf(ctx, name);
    return guarded('encode', () => {
      const value = typeof term === 'string' && codec.type === 'json' ? JSON.parse(term) : term;
      return codec.encode(value, messageType === undefined ? undefined : str(messageType));
    });
  }),
  schema_check: def(2, 2, ([name, payload], ctx) => codecOf(ctx, name).check(payload)),
};
