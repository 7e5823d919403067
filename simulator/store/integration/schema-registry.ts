// Schema registry (emqx_schema_registry; part 2 §8): Avro, Protobuf and JSON Schema sources really
// compiled with avsc, protobufjs and ajv, the external (Confluent) registries, and the codecs the
// rule SQL functions schema_decode/schema_encode/schema_check use.
import AjvModule from 'ajv';
import avro from 'avsc';
import protobuf from 'protobufjs';
import { apiError } from '../../plugins/errors.ts';
import type { StoreContext } from '../context.ts';

export const SCHEMA_TYPES = ['avro', 'protobuf', 'json'] as const;
export type SchemaType = (typeof SCHEMA_TYPES)[number];

export interface SchemaRecord {
  name: string;
  type: SchemaType;
  source: string;
  description: string;
}

export interface ExternalRegistry {
  type: 'confluent';
  url: string;
  auth: 'none' | { mechanism: 'basic'; username: string; password: string };
}

/** A compiled schema as the SQL functions use it; payloads are bytes, terms plain JSON values. */
export interface Codec {
  type: SchemaType;
  decode(payload: Buffer, messageType?: string): unknown;
  encode(term: unknown, messageType?: string): Buffer;
  check(payload: unknown): boolean;
}

// ajv is CommonJS: under Node's ESM loader the class may sit on `default`.
const Ajv = ((AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule) as typeof AjvModule;
const NAME = /^[0-9a-zA-Z][-0-9a-zA-Z_]*$/;
/** The built-in Sparkplug B schema's name may not be taken. */
const RESERVED = '__CiYAWBja87PleCyKZ58h';

/** Line (1-based) of a character position in a text. */
function lineOf(text: string, position: number): number {
  return text.slice(0, position).split('\n').length;
}

/** JSON.parse with the error naming the line, as the compile errors do. */
function parseJson(source: string): unknown {
  try {
    return JSON.parse(source);
  } catch (err) {
    const message = (err as Error).message;
    const at = /position (\d+)/.exec(message);
    throw new Error(at ? `${message} (line ${lineOf(source, Number(at[1]))})` : message);
  }
}

/** Values as JSON would carry them: records/messages to plain maps, bytes to text, longs to numbers. */
function plain(value: unknown): unknown {
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'bigint') return Number(value);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

function avroCodec(source: string): Codec {
  const type = avro.Type.forSchema(parseJson(source) as avro.Schema);
  return {
    type: 'avro',
    decode: (payload) => plain(type.fromBuffer(payload)),
    encode: (term) => type.toBuffer(term),
    check: (payload) => {
      try {
        type.fromBuffer(Buffer.isBuffer(payload) ? payload : Buffer.from(String(payload)));
        return true;
      } catch {
        return false;
      }
    },
  };
}

function protobufCodec(source: string): Codec {
  const root = protobuf.parse(source, { keepCase: true }).root;
  root.resolveAll();
  const lookup = (messageType?: string): protobuf.Type => {
    if (!messageType) throw new Error('message_type is required for protobuf schemas');
    try {
      return root.lookupType(messageType);
    } catch {
      throw new Error(`message type not found: ${messageType}`);
    }
  };
  return {
    type: 'protobuf',
    decode: (payload, messageType) => {
      const message = lookup(messageType);
      return plain(message.toObject(message.decode(payload), { longs: Number, enums: String, bytes: String, defaults: true }));
    },
    encode: (term, messageType) => {
      const message = lookup(messageType);
      const problem = message.verify(term as Record<string, unknown>);
      if (problem) throw new Error(problem);
      return Buffer.from(message.encode(message.fromObject(term as Record<string, unknown>)).finish());
    },
    check: () => false,
  };
}

function jsonCodec(source: string): Codec {
  const validate = new Ajv({ allErrors: true, strict: false }).compile(parseJson(source) as object);
  const valid = (term: unknown): boolean => validate(term) === true;
  const term = (payload: unknown): unknown => (Buffer.isBuffer(payload) || typeof payload === 'string' ? JSON.parse(String(payload)) : payload);
  return {
    type: 'json',
    decode: (payload) => {
      const value = term(payload);
      if (!valid(value)) throw new Error(`JSON schema validation failed: ${JSON.stringify(validate.errors)}`);
      return value;
    },
    encode: (value) => {
      if (!valid(value)) throw new Error(`JSON schema validation failed: ${JSON.stringify(validate.errors)}`);
      return Buffer.from(JSON.stringify(value));
    },
    check: (payload) => {
      try {
        return valid(term(payload));
      } catch {
        return false;
      }
    },
  };
}

/** Compiles a source; a broken one throws with the library's reason (and line where it gives one). */
export function compileSchema(type: SchemaType, source: string): Codec {
  if (type === 'avro') return avroCodec(source);
  if (type === 'protobuf') return protobufCodec(source);
  return jsonCodec(source);
}

const REDACTED = '******';

export class SchemaRegistry {
  /** Compiled codecs by name, rebuilt when a source changes. */
  private readonly codecs = new Map<string, { source: string; type: SchemaType; codec: Codec }>();

  constructor(private readonly ctx: StoreContext) {}

  private get records(): SchemaRecord[] {
    return this.ctx.state.schema_registry ?? [];
  }

  list(): SchemaRecord[] {
    return this.records;
  }

  get(name: string): SchemaRecord {
    const found = this.records.find((s) => s.name === name);
    if (!found) throw apiError(404, 'NOT_FOUND', 'Schema not found');
    return found;
  }

  /** The codec of a schema for the SQL functions; undefined when there is no such schema. */
  codec(name: string): Codec | undefined {
    const record = this.records.find((s) => s.name === name);
    if (!record) return undefined;
    const cached = this.codecs.get(name);
    if (cached && cached.source === record.source && cached.type === record.type) return cached.codec;
    const codec = compileSchema(record.type, record.source);
    this.codecs.set(name, { source: record.source, type: record.type, codec });
    return codec;
  }

  private validated(body: { type: SchemaType; source: string; description?: string }, name: string): SchemaRecord {
    try {
      compileSchema(body.type, body.source);
    } catch (err) {
      throw apiError(400, 'BAD_REQUEST', `{failed_to_build_serde, ${body.type}: ${(err as Error).message}}`);
    }
    return { name, type: body.type, source: body.source, description: body.description ?? '' };
  }

  async create(body: { name: string; type: SchemaType; source: string; description?: string }): Promise<SchemaRecord> {
    if (!NAME.test(body.name) || body.name.length >= 255 || body.name === RESERVED) {
      throw apiError(400, 'BAD_REQUEST', JSON.stringify({ kind: 'validation_error', reason: 'Invalid name format. The name must begin with a letter or number (0-9) and can contain alphanumeric characters, hyphens (-), or underscores (_).' }));
    }
    if (this.records.some((s) => s.name === body.name)) throw apiError(400, 'ALREADY_EXISTS', 'Schema already exists');
    const record = this.validated(body, body.name);
    this.ctx.state.schema_registry = [...this.records, record];
    await this.ctx.persist();
    return record;
  }

  async update(name: string, body: { type: SchemaType; source: string; description?: string }): Promise<SchemaRecord> {
    this.get(name);
    const record = this.validated(body, name);
    this.ctx.state.schema_registry = this.records.map((s) => (s.name === name ? record : s));
    await this.ctx.persist();
    return record;
  }

  /** Deletes a schema unless rules (ids given) still use it. */
  async remove(name: string, usedBy: string[]): Promise<void> {
    this.get(name);
    if (usedBy.length > 0) throw apiError(400, 'BAD_REQUEST', `Schema is used by rules: ${usedBy.join(', ')}`);
    this.ctx.state.schema_registry = this.records.filter((s) => s.name !== name);
    this.codecs.delete(name);
    await this.ctx.persist();
  }

  // External registries: an object by name; passwords redacted on read and kept when "******".

  private get externals(): Record<string, ExternalRegistry> {
    return this.ctx.state.schema_registry_external ?? {};
  }

  private redact(registry: ExternalRegistry): ExternalRegistry {
    return typeof registry.auth === 'object' ? { ...registry, auth: { ...registry.auth, password: REDACTED } } : registry;
  }

  listExternal(): Record<string, ExternalRegistry> {
    return Object.fromEntries(Object.entries(this.externals).map(([name, r]) => [name, this.redact(r)]));
  }

  getExternal(name: string): ExternalRegistry {
    const found = this.externals[name];
    if (!found) throw apiError(404, 'NOT_FOUND', 'External registry not found');
    return this.redact(found);
  }

  private external(body: Partial<ExternalRegistry>, previous?: ExternalRegistry): ExternalRegistry {
    const auth = body.auth ?? 'none';
    if (typeof auth === 'object') {
      const password = auth.password === REDACTED && previous && typeof previous.auth === 'object' ? previous.auth.password : auth.password;
      return { type: 'confluent', url: body.url ?? '', auth: { mechanism: 'basic', username: auth.username, password } };
    }
    return { type: 'confluent', url: body.url ?? '', auth: 'none' };
  }

  async createExternal(body: Partial<ExternalRegistry> & { name: string }): Promise<ExternalRegistry> {
    if (!NAME.test(body.name) || body.name.length >= 255) throw apiError(400, 'BAD_REQUEST', JSON.stringify({ kind: 'validation_error', reason: 'Invalid name format' }));
    if (this.externals[body.name]) throw apiError(400, 'ALREADY_EXISTS', 'External registry already exists');
    const record = this.external(body);
    this.ctx.state.schema_registry_external = { ...this.externals, [body.name]: record };
    await this.ctx.persist();
    return this.redact(record);
  }

  async updateExternal(name: string, body: Partial<ExternalRegistry>): Promise<ExternalRegistry> {
    const previous = this.externals[name];
    if (!previous) throw apiError(404, 'NOT_FOUND', 'External registry not found');
    const record = this.external(body, previous);
    this.ctx.state.schema_registry_external = { ...this.externals, [name]: record };
    await this.ctx.persist();
    return this.redact(record);
  }

  async removeExternal(name: string): Promise<void> {
    if (!this.externals[name]) return;
    const rest = { ...this.externals };
    delete rest[name];
    this.ctx.state.schema_registry_external = rest;
    await this.ctx.persist();
  }
}
