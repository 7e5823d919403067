// Math and bit functions of emqx_rule_funcs (abs … tanh, div, mod, power, round, random, bit*).
import { EvalError, toInt, toNum } from '../values.ts';
import { def, type FnGroup } from './registry.ts';

const unary = (f: (x: number) => number) => def(1, 1, ([x]) => f(toNum(x)));

function intDiv(a: unknown, b: unknown, op: 'div' | 'mod'): number {
  const x = toNum(a);
  const y = toNum(b);
  if (!Number.isInteger(x) || !Number.isInteger(y)) throw new EvalError(`${op} needs integers`);
  if (y === 0) throw new EvalError('division by zero');
  // Erlang div truncates toward zero and rem keeps the sign of the dividend.
  return op === 'div' ? Math.trunc(x / y) : x % y;
}

export const mathFunctions: FnGroup = {
  abs: unary(Math.abs),
  acos: unary(Math.acos),
  acosh: unary(Math.acosh),
  asin: unary(Math.asin),
  asinh: unary(Math.asinh),
  atan: unary(Math.atan),
  atanh: unary(Math.atanh),
  ceil: unary(Math.ceil),
  cos: unary(Math.cos),
  cosh: unary(Math.cosh),
  exp: unary(Math.exp),
  floor: unary(Math.floor),
  fmod: def(2, 2, ([a, b]) => toNum(a) % toNum(b)),
  log: unary(Math.log),
  log10: unary(Math.log10),
  log2: unary(Math.log2),
  power: def(2, 2, ([a, b]) => toNum(a) ** toNum(b)),
  round: unary(Math.round),
  sin: unary(Math.sin),
  sinh: unary(Math.sinh),
  sqrt: unary(Math.sqrt),
  tan: unary(Math.tan),
  tanh: unary(Math.tanh),
  random: def(0, 0, () => Math.random()),
  div: def(2, 2, ([a, b]) => intDiv(a, b, 'div')),
  mod: def(2, 2, ([a, b]) => intDiv(a, b, 'mod')),
  bitnot: def(1, 1, ([a]) => ~toInt(a)),
  bitand: def(2, 2, ([a, b]) => toInt(a) & toInt(b)),
  bitor: def(2, 2, ([a, b]) => toInt(a) | toInt(b)),
  bitxor: def(2, 2, ([a, b]) => toInt(a) ^ toInt(b)),
  bitsl: def(2, 2, ([a, b]) => toInt(a) << toInt(b)),
  bitsr: def(2, 2, ([a, b]) => toInt(a) >> toInt(b)),
};
