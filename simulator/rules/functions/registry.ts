// The function table of the rule SQL: each group file registers its functions with their arity,
// and the evaluator and the parser check calls against it.
import type { Codec } from '../../store/integration/schema-registry.ts';
import { EvalError } from '../values.ts';

export interface FnContext {
  /** Epoch milliseconds of the evaluation (the simulator's clock). */
  now(): number;
  /** The schema registry's compiled schema of a name (schema_decode/encode/check). */
  schemas?: (name: string) => Codec | undefined;
}

export interface FnDef {
  min: number;
  max: number;
  fn: (args: unknown[], ctx: FnContext) => unknown;
  /** Checks a call when the SQL is written, given the literal arguments (undefined for others): a problem, or null. */
  check?: (literals: unknown[]) => string | null;
}

export type FnGroup = Record<string, FnDef>;

/** Shorthand: a function of exactly/at least `min` and at most `max` arguments. */
export function def(min: number, max: number, fn: FnDef['fn'], check?: FnDef['check']): FnDef {
  return { min, max, fn, check };
}

export function callFn(table: FnGroup, name: string, args: unknown[], ctx: FnContext): unknown {
  const entry = table[name];
  if (!entry) throw new EvalError(`undefined function ${name}`);
  if (args.length < entry.min || args.length > entry.max) throw new EvalError(`bad number of arguments for ${name}`);
  return entry.fn(args, ctx);
}
