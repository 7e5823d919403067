// `${var}` templates of rule outputs (emqx_template): placeholders are paths into the rule's
// output (`${payload.x}`, `${clientid}`, `${.}` for the whole output); maps and arrays render as
// JSON, missing values as an empty string.
import { nestedGet, toStr, type Obj } from './values.ts';

const PLACEHOLDER = /\$\{([^}]*)\}/g;

/** The value a placeholder path refers to. */
export function lookupVar(path: string, data: Obj): unknown {
  const trimmed = path.trim();
  if (trimmed === '.' || trimmed === '') return data;
  return nestedGet(data, trimmed.split('.'));
}

function text(value: unknown): string {
  return value === undefined || value === null ? '' : toStr(value);
}

/** Renders a template string. */
export function render(template: string, data: Obj): string {
  return template.replace(PLACEHOLDER, (_m, path: string) => text(lookupVar(path, data)));
}

/** A template that is exactly one placeholder yields the raw value (qos, retain, user properties). */
export function renderValue(template: unknown, data: Obj): unknown {
  if (typeof template !== 'string') return template;
  const m = /^\$\{([^}]*)\}$/.exec(template.trim());
  return m ? lookupVar(m[1], data) : render(template, data);
}
