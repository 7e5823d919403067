// Message transformation (emqx_message_transformation, e5.8.9): the ordered transformations, as
// emqx_message_transformation_schema.erl defines them, and running them on one message. Each
// decodes the payload (none, JSON, or a schema registry Avro/Protobuf schema), sets `payload…`,
// `topic`, `qos`, `retain` or `user_property.<key>` from variform expressions one operation
// after another, and encodes the payload again. The broker step applies the result.
import { apiError } from '../../plugins/errors.ts';
import { def, type FnGroup } from '../../rules/functions/registry.ts';
import { isObj, nestedPut, type Obj } from '../../rules/values.ts';
import { compileVariform, renderVariform, VariformError, type VarExpr } from '../../rules/variform.ts';
import type { StoreContext } from '../context.ts';
import { checkName } from '../integration/connectors.ts';
import type { SchemaRegistry } from '../integration/schema-registry.ts';
import { MessageChain, type ChainEntry } from './message-chain.ts';
import { commonFields, invalidField, type FailureAction, type Validation } from './schema-validation.ts';

export const SERDE_TYPES = ['none', 'json', 'avro', 'protobuf'] as const;

export interface PayloadSerde {
  type: (typeof SERDE_TYPES)[number];
  schema?: string;
  message_type?: string;
}

export interface Operation {
  key: string;
  value: string;
}

/** A transformation as stored and answered: the checked config, defaults filled in. */
export interface Transformation extends ChainEntry {
  tags?: string[];
  description: string;
  failure_action: FailureAction;
  log_failure: Validation['log_failure'];
  payload_decoder: PayloadSerde;
  payload_encoder: PayloadSerde;
  operations: Operation[];
}

/** The parts of a message a transformation reads and may change. */
export interface TransformMessage {
  topic: string;
  qos: 0 | 1 | 2;
  retain: boolean;
  payload: Buffer;
  user_property: Record<string, string>;
  /** The read-only columns: clientid, username, peername, pub_props, client_attrs, timestamps … */
  context: Obj;
}

/** The failure of one transformation: its tag and details (trace_failure_context_to_map/1). */
export interface TransformFailure {
  msg: string;
  [key: string]: unknown;
}

export type TransformOutcome =
  | { ok: true; message: TransformMessage }
  | { ok: false; transformation: Transformation; action: Exclude<FailureAction, 'ignore'> };

// fields(payload_serde_*): the fields each payload codec has.
const SERDE_FIELDS: Record<PayloadSerde['type'], readonly string[]> = {
  none: ['type'], json: ['type'], avro: ['type', 'schema'], protobuf: ['type', 'schema', 'message_type'],
};
const ALLOWED_ROOT_KEYS = ['payload', 'qos', 'retain', 'topic', 'user_property'];

// emqx_message_transformation_bif: the JSON codec its expressions may call.
const TRANSFORMATION_BIFS: FnGroup = {
  json_encode: def(1, 1, ([x]) => JSON.stringify(x)),
  json_decode: def(1, 1, ([text]) => {
    try {
      return JSON.parse(Buffer.isBuffer(text) ? text.toString('utf8') : String(text));
    } catch (err) {
      throw new VariformError({ reason: 'json_decode_failure', detail: (err as Error).message });
    }
  }),
};

/** parse_key_path/2: a dotted path under one of the allowed roots. */
function keyPath(key: unknown, path: string): string[] {
  if (key === '') invalidField(path, 'key must be non-empty');
  const parts = String(key).split('.');
  if (parts.some((p) => p === '')) invalidField(path, { invalid_key: key });
  const [root] = parts;
  if (root === 'user_property' && parts.length !== 2) invalidField(path, { invalid_key: key, reason: 'must define exactly one key inside user property' });
  if (!ALLOWED_ROOT_KEYS.includes(root) || (root !== 'payload' && root !== 'user_property' && parts.length > 1)) {
    invalidField(path, { invalid_key: key, allowed_root_keys: ALLOWED_ROOT_KEYS });
  }
  return parts;
}

class Failure extends Error {
  constructor(readonly context: TransformFailure) {
    super(context.msg);
  }
}

export class MessageTransformations extends MessageChain<Transformation> {
  /** Compiled operations by transformation object. */
  private readonly compiled = new WeakMap<Transformation, { path: string[]; expr: VarExpr }[]>();

  constructor(ctx: StoreContext, private readonly registry: SchemaRegistry, nodes: () => string[], self: string) {
    super(ctx, 'message_transformations', 'Transformation', nodes, self);
  }

  /** A request body as the config it becomes, or 400 as hocon refuses it. */
  validate(body: Obj): Transformation {
    const name = checkName(body.name);
    const serde = (value: unknown, field: string): PayloadSerde => {
      const given = (value ?? { type: 'none' }) as Obj;
      const type = given.type as PayloadSerde['type'];
      for (const key of Object.keys(given)) if (!SERDE_FIELDS[type].includes(key)) invalidField(`root.${field}`, 'unknown_fields', key);
      for (const key of SERDE_FIELDS[type]) if (given[key] === undefined) invalidField(`root.${field}.${key}`, 'required_field');
      return { ...given } as unknown as PayloadSerde;
    };
    const operations = ((body.operations as Obj[] | undefined) ?? []).map((op, i): Operation => {
      keyPath(op.key, `root.operations.${i + 1}.key`);
      try {
        compileVariform(String(op.value));
      } catch (err) {
        invalidField(`root.operations.${i + 1}.value`, { expression: op.value, reason: (err as VariformError).reason });
      }
      return { key: String(op.key), value: String(op.value) };
    });
    return {
      ...commonFields(body, name),
      payload_decoder: serde(body.payload_decoder, 'payload_decoder'),
      payload_encoder: serde(body.payload_encoder, 'payload_encoder'),
      operations,
    };
  }

  private operations(t: Transformation): { path: string[]; expr: VarExpr }[] {
    let ops = this.compiled.get(t);
    if (!ops) {
      ops = t.operations.map((op) => ({ path: op.key.split('.'), expr: compileVariform(op.value) }));
      this.compiled.set(t, ops);
    }
    return ops;
  }

  private decode(payload: Buffer, serde: PayloadSerde): unknown {
    if (serde.type === 'none') return payload;
    if (serde.type === 'json') {
      try {
        return JSON.parse(payload.toString('utf8'));
      } catch (err) {
        throw new Failure({ msg: 'payload_decode_failed', decoder: 'json', reason: (err as Error).message });
      }
    }
    const codec = this.registry.codec(serde.schema as string);
    if (!codec) throw new Failure({ msg: 'payload_decode_schema_not_found', decoder: serde.type, schema_name: serde.schema });
    try {
      return codec.decode(payload, serde.message_type);
    } catch (err) {
      throw new Failure({ msg: 'payload_decode_schema_failure', decoder: serde.type, schema_name: serde.schema, reason: (err as Error).message });
    }
  }

  private encode(value: unknown, serde: PayloadSerde): unknown {
    if (serde.type === 'none') return value;
    if (serde.type === 'json') return Buffer.from(JSON.stringify(value));
    const codec = this.registry.codec(serde.schema as string);
    if (!codec) throw new Failure({ msg: 'payload_encode_schema_not_found', encoder: serde.type, schema_name: serde.schema });
    try {
      return codec.encode(value, serde.message_type);
    } catch (err) {
      throw new Failure({ msg: 'payload_encode_schema_failure', encoder: serde.type, schema_name: serde.schema, reason: (err as Error).message });
    }
  }

  /**
   * One transformation on one message (run_transformation/2): the message it makes, or throws a
   * Failure naming what went wrong. The payload of the result may still be a non-binary value;
   * the chain checks that after the last one.
   */
  transformOne(t: Transformation, message: TransformMessage): TransformMessage & { payloadValue: unknown } {
    const payloadIn = (message as { payloadValue?: unknown }).payloadValue ?? message.payload;
    let payload = this.decode(Buffer.isBuffer(payloadIn) ? payloadIn : Buffer.from(String(payloadIn)), t.payload_decoder);
    if (Buffer.isBuffer(payload)) payload = payload.toString('utf8');
    const out = { ...message, user_property: { ...message.user_property } };
    const bindings: Obj = {
      ...message.context, payload, qos: message.qos, retain: message.retain, topic: message.topic,
      user_property: out.user_property, timestamp: this.ctx.clock.now(),
    };
    for (const { path, expr } of this.operations(t)) {
      let rendered: unknown;
      try {
        rendered = renderVariform(expr, { bindings, now: () => this.ctx.clock.now(), schemas: (n) => this.registry.codec(n), functions: TRANSFORMATION_BIFS }, path[0] !== 'payload');
      } catch (err) {
        throw new Failure({ msg: 'transformation_eval_operation_failure', reason: err instanceof VariformError ? err.reason : (err as Error).message });
      }
      const [root, ...rest] = path;
      if (root === 'payload') {
        if (rest.length === 0) bindings.payload = rendered;
        else if (isObj(bindings.payload)) nestedPut(bindings.payload, rest, rendered);
        else throw new Failure({ msg: 'transformation_eval_operation_exception', reason: 'badmap', operation: { key: path.join('.') } });
      } else if (root === 'qos') {
        if (!['0', '1', '2'].includes(String(rendered))) throw new Failure({ msg: 'transformation_eval_operation_failure', reason: { reason: 'bad_qos_value', input: rendered } });
        out.qos = Number(rendered) as 0 | 1 | 2;
        bindings.qos = out.qos;
      } else if (root === 'retain') {
        if (rendered !== 'true' && rendered !== 'false') throw new Failure({ msg: 'transformation_eval_operation_failure', reason: { reason: 'bad_retain_value', input: rendered } });
        out.retain = rendered === 'true';
        bindings.retain = out.retain;
      } else if (root === 'topic') {
        out.topic = String(rendered);
        bindings.topic = out.topic;
      } else {
        out.user_property[rest[0]] = String(rendered);
      }
    }
    const encoded = this.encode(bindings.payload, t.payload_encoder);
    const dirtyPayload = this.operations(t).some((op) => op.path[0] === 'payload') || JSON.stringify(t.payload_decoder) !== JSON.stringify(t.payload_encoder);
    const payloadValue = dirtyPayload ? encoded : message.payload;
    return { ...out, payload: Buffer.isBuffer(payloadValue) ? payloadValue : typeof payloadValue === 'string' ? Buffer.from(payloadValue) : message.payload, payloadValue };
  }

  /**
   * Runs the matching transformations in order (do_run_transformations/2): each one's output is
   * the next one's input; `ignore` keeps the message as it was and goes on; the last one is
   * only counted a success once the final payload is binary.
   */
  run(transformations: Transformation[], message: TransformMessage): TransformOutcome {
    let current: TransformMessage & { payloadValue?: unknown } = message;
    const last = transformations[transformations.length - 1];
    for (const t of transformations) {
      this.count(t.name, 'matched');
      try {
        current = this.transformOne(t, current);
        if (t !== last) this.count(t.name, 'succeeded');
      } catch (err) {
        if (!(err instanceof Failure)) throw err;
        this.count(t.name, 'failed');
        this.failed(t, message);
        if (t.failure_action !== 'ignore') return { ok: false, transformation: t, action: t.failure_action };
      }
    }
    // is_payload_properly_encoded: the last one is responsible for a binary payload.
    const value = current.payloadValue;
    if (value !== undefined && !Buffer.isBuffer(value) && typeof value !== 'string') {
      this.count(last.name, 'failed');
      if (last.failure_action !== 'ignore') return { ok: false, transformation: last, action: last.failure_action };
      return { ok: true, message: { ...current, payload: message.payload } };
    }
    this.count(last.name, 'succeeded');
    const { payloadValue: _value, ...done } = current;
    return { ok: true, message: done };
  }

  /** POST /message_transformations/dryrun: the message one transformation makes, or its failure. */
  dryrun(t: Transformation, message: TransformMessage): { ok: true; message: TransformMessage } | { ok: false; failure: TransformFailure } {
    try {
      const out = this.transformOne(t, message);
      if (!Buffer.isBuffer(out.payloadValue) && typeof out.payloadValue !== 'string') {
        return { ok: false, failure: { msg: 'transformation_bad_encoding', explain: 'final payload must be encoded as a binary' } };
      }
      return { ok: true, message: out };
    } catch (err) {
      if (err instanceof Failure) return { ok: false, failure: err.context };
      throw err;
    }
  }

  /** Called for every failed transformation (the `message.transformation_failed` hook); set by the broker. */
  failed: (transformation: Transformation, message: TransformMessage) => void = () => {};

  /** 400 for a body the dry run cannot take. */
  static badDryrun(message: string): never {
    throw apiError(400, 'BAD_REQUEST', message);
  }
}
