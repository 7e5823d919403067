/**
 * Small text helpers on a rule's SQL for the editor: the FROM list, adding a source to it, and
 * the test event a FROM entry stands for. They edit text only; the broker parses the SQL.
 */

export const DEFAULT_SQL = 'SELECT\n  *\nFROM\n  "t/#"';

const FROM = /\bFROM\s+((?:"[^"]*"\s*,\s*)*"[^"]*")/i;

/** The quoted entries of the FROM clause, e.g. `["t/#", "$events/client_connected"]`. */
export function fromList(sql: string): string[] {
  const list = FROM.exec(sql)?.[1] ?? '';
  return [...list.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
}

/** The SQL with `source` added to its FROM list; the untouched default `"t/#"` is replaced. */
export function addFrom(sql: string, source: string): string {
  const quoted = `"${source}"`;
  const match = FROM.exec(sql);
  if (!match) return `${sql.trimEnd()}\nFROM\n  ${quoted}`;
  const list = match[1];
  if (list.includes(quoted)) return sql;
  const at = match.index + match[0].length - list.length;
  const next = list === '"t/#"' ? quoted : `${list},\n  ${quoted}`;
  return sql.slice(0, at) + next + sql.slice(at + list.length);
}

/**
 * The SQL with `expr` added to the end of its field list (before FROM): `SELECT *` becomes
 * `SELECT *, expr`; a SQL without FROM gets it appended.
 */
export function addField(sql: string, expr: string): string {
  const match = /\s+FROM\s/i.exec(sql);
  if (!match) return `${sql.trimEnd()}\n  ${expr}`;
  return `${sql.slice(0, match.index).trimEnd()},\n  ${expr}${sql.slice(match.index)}`;
}

/** The `/rule_events` event a FROM entry is tested with: `$events/...` itself, sources, else message publish. */
export function eventOf(from: string | undefined): string {
  if (from?.startsWith('$events/')) return from;
  if (from?.startsWith('$bridges/mqtt:') || from?.startsWith('$sources/mqtt:')) return '$bridges/mqtt:*';
  return '$events/message_publish';
}

/** `event_type` of a rule test context (emqx-api-part2 §5.6): the event name, `$bridges/...` kept whole. */
export function eventType(event: string): string {
  return event.replace(/^\$events\/(sys\/)?/, '');
}

/** A topic name a topic filter matches, for prefilling the test context (`sensors/+` → `sensors/a`). */
export function sampleTopic(filter: string): string {
  return filter.replace(/^\$share\/[^/]+\//, '').split('/').map((level) => (level === '+' || level === '#' ? 'a' : level)).join('/');
}
