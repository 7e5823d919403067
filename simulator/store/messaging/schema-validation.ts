// Schema validation (emqx_schema_validation, e5.8.9): the ordered validations with their checks,
// as emqx_schema_validation_schema.erl defines them, and running them on one message. A check is
// a SQL statement without FROM (the message passes when it selects something), or the name of a
// schema registry schema the payload must fit (JSON Schema, Avro, Protobuf). The broker step
// (broker/schema-validation.ts) applies the outcome; this module only decides it.
import { apiError, unknownFieldMessage } from '../../plugins/errors.ts';
import { compileSql, evaluate } from '../../rules/evaluator.ts';
import type { Statement } from '../../rules/parser.ts';
import type { Obj } from '../../rules/values.ts';
import type { StoreContext } from '../context.ts';
import { checkName } from '../integration/connectors.ts';
import type { SchemaRegistry } from '../integration/schema-registry.ts';
import { MessageChain, type ChainEntry } from './message-chain.ts';

export const CHECK_TYPES = ['sql', 'json', 'avro', 'protobuf'] as const;
export const FAILURE_ACTIONS = ['drop', 'disconnect', 'ignore'] as const;
export const LOG_LEVELS = ['error', 'warning', 'notice', 'info', 'debug', 'none'] as const;

export type FailureAction = (typeof FAILURE_ACTIONS)[number];

export interface SchemaCheck {
  type: (typeof CHECK_TYPES)[number];
  sql?: string;
  schema?: string;
  message_type?: string;
}

/** A validation as stored and answered: the checked config, defaults filled in. */
export interface Validation extends ChainEntry {
  tags?: string[];
  description: string;
  strategy: 'all_pass' | 'any_pass';
  failure_action: FailureAction;
  log_failure: { level: (typeof LOG_LEVELS)[number] };
  checks: SchemaCheck[];
}

/** What one message came to: passed, or the failing validation and its action. */
export type ValidationOutcome = { passed: true } | { passed: false; validation: Validation; action: Exclude<FailureAction, 'ignore'> };

// The fields of each check type (fields(check_sql) … in emqx_schema_validation_schema.erl).
const CHECK_FIELDS: Record<SchemaCheck['type'], readonly string[]> = {
  sql: ['type', 'sql'],
  json: ['type', 'schema'],
  avro: ['type', 'schema'],
  protobuf: ['type', 'schema', 'message_type'],
};

/** A hocon validation failure at `path`, as the API's 400 message carries it. */
export function invalidField(path: string, reason: unknown, value?: unknown): never {
  const body: Obj = { kind: 'validation_error', path, reason };
  if (value !== undefined) body.value = value;
  throw apiError(400, 'BAD_REQUEST', JSON.stringify(body));
}

/** The `topics` field: one filter or a list (converter ensure_array), none repeated, at least one. */
export function topicList(topics: unknown): string[] {
  const list = Array.isArray(topics) ? (topics as string[]) : [topics as string];
  if (list.length === 0) invalidField('root.topics', 'at least one topic filter must be defined', []);
  const repeated = [...new Set(list.filter((t, i) => list.indexOf(t) !== i))];
  if (repeated.length) invalidField('root.topics', `duplicated topics: ${repeated.join(', ')}`, list);
  return list;
}

/** The fields validations and transformations share, from a request body with their defaults. */
export function commonFields(body: Obj, name: string): Omit<Validation, 'strategy' | 'checks'> {
  return {
    ...(body.tags === undefined ? {} : { tags: body.tags as string[] }),
    description: (body.description as string | undefined) ?? '',
    enable: body.enable !== false,
    name,
    topics: topicList(body.topics),
    failure_action: body.failure_action as FailureAction,
    log_failure: { level: ((body.log_failure as Obj | undefined)?.level ?? 'info') as Validation['log_failure']['level'] },
  };
}

export class SchemaValidations extends MessageChain<Validation> {
  /** Compiled SQL checks by statement text. */
  private readonly statements = new Map<string, Statement>();

  constructor(ctx: StoreContext, private readonly registry: SchemaRegistry, nodes: () => string[], self: string) {
    super(ctx, 'schema_validations', 'Validation', nodes, self);
  }

  /** A request body as the config it becomes, or 400 as hocon and the config handler refuse it. */
  validate(body: Obj): Validation {
    const name = checkName(body.name);
    const checks = body.checks as Obj[];
    if (checks.length === 0) invalidField('root.checks', 'at least one check must be defined', []);
    const normalized = checks.map((check, i): SchemaCheck => {
      const type = check.type as SchemaCheck['type'];
      const path = `root.checks.${i + 1}`;
      for (const key of Object.keys(check)) if (!CHECK_FIELDS[type].includes(key)) throw apiError(400, 'BAD_REQUEST', unknownFieldMessage(key, path));
      for (const key of CHECK_FIELDS[type]) if (check[key] === undefined) invalidField(`${path}.${key}`, 'required_field');
      if (type === 'sql') this.statement(String(check.sql), `${path}.sql`);
      return { ...check } as unknown as SchemaCheck;
    });
    // validate_unique_schema_checks: the same type and schema twice.
    const seen = new Set<string>();
    const dupes = new Set<string>();
    for (const c of normalized) {
      if (c.schema === undefined) continue;
      const key = `${c.type}:${c.schema}`;
      if (seen.has(key)) dupes.add(key);
      seen.add(key);
    }
    if (dupes.size) invalidField('root.checks', `duplicated schema checks: ${[...dupes].join(', ')}`);
    // emqx_schema_validation_config assert_referenced_schemas_exist, after the schema check.
    const missing = normalized.filter((c) => c.schema !== undefined && !this.registry.codec(c.schema)).map((c) => [c.schema as string, ...(c.message_type ? [c.message_type] : [])]);
    if (missing.length) {
      const listed = `[${missing.reverse().map((path) => MessageChain.binaries(path)).join(',')}]`;
      throw apiError(400, 'BAD_REQUEST', MessageChain.handlerFailure('emqx_schema_validation_config', `#{missing_schemas => ${listed}}`));
    }
    return {
      ...commonFields(body, name),
      strategy: body.strategy as Validation['strategy'],
      checks: normalized,
    };
  }

  /** emqx_schema_validation:parse_sql_check: a SELECT without FROM; FOREACH is refused. */
  private statement(sql: string, path = 'root.checks'): Statement {
    let stmt = this.statements.get(sql);
    if (stmt) return stmt;
    try {
      stmt = compileSql(sql, false);
    } catch (err) {
      invalidField(path, (err as Error).message, sql);
    }
    if (stmt.kind === 'foreach') invalidField(path, 'foreach_not_allowed', sql);
    this.statements.set(sql, stmt);
    return stmt;
  }

  /**
   * Runs the matching validations on a message in order (run_validations/2): each is matched,
   * then succeeds or fails; `ignore` goes on to the next, another action stops there. `columns`
   * are the message's rule columns (for SQL checks), `payload` its bytes (for schema checks).
   */
  run(validations: Validation[], columns: () => Obj, payload: Buffer): ValidationOutcome {
    let data: Obj | null = null;
    const row = () => (data ??= columns());
    for (const validation of validations) {
      this.count(validation.name, 'matched');
      const check = (c: SchemaCheck) => this.check(c, row, payload);
      const ok = validation.strategy === 'all_pass' ? validation.checks.every(check) : validation.checks.some(check);
      if (ok) {
        this.count(validation.name, 'succeeded');
        continue;
      }
      this.count(validation.name, 'failed');
      this.failed(validation);
      if (validation.failure_action !== 'ignore') return { passed: false, validation, action: validation.failure_action };
    }
    return { passed: true };
  }

  /** Called for every failed validation (the `schema.validation_failed` hook); set by the broker. */
  failed: (validation: Validation) => void = () => {};

  private check(c: SchemaCheck, columns: () => Obj, payload: Buffer): boolean {
    if (c.type === 'sql') {
      // evaluate_sql_check: selected means passed; an exception fails the check.
      try {
        return evaluate(this.statement(c.sql as string), columns(), { now: () => this.ctx.clock.now(), schemas: (n) => this.registry.codec(n) }) !== null;
      } catch {
        return false;
      }
    }
    // evaluate_schema_check: emqx_schema_registry_serde:schema_check on the payload bytes is
    // "does it decode" (eval_decode, which for JSON also validates); a missing schema fails.
    const codec = this.registry.codec(c.schema as string);
    if (!codec) return false;
    try {
      codec.decode(payload, c.message_type);
      return true;
    } catch {
      return false;
    }
  }
}
