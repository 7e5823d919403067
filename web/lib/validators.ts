/**
 * Form rules shared by every screen: each rule takes the field's value (and the whole form) and
 * returns a translated message or undefined. Rules only check what the user typed; they do not
 * talk to the server, which stays the authority (its 400 messages are shown by `handleError`).
 */
import { defineMessages, t } from './i18n';
import { isEmpty, type Rule } from './rules.ts';

// The rules the login page needs live in rules.ts, so the login page loads without the rest.
export * from './rules.ts';

defineMessages({
  'validation.nameRequired': { zh: '请输入名称', en: 'Name is required' },
  'validation.nodeNameRequired': { zh: '请输入节点名称', en: 'Node name is required' },
  'validation.namePattern': {
    zh: '以字母或数字开头，仅支持字母、数字、连字符 (-) 和下划线 (_)，不支持中文',
    en: 'Start with a letter or digit, then use only letters, digits, hyphens (-) and underscores (_); Chinese characters are not supported',
  },
  'validation.strictNamePattern': {
    zh: '以字母开头，仅支持字母、数字、连字符 (-) 和下划线 (_)，不支持中文',
    en: 'Start with a letter, then use only letters, digits, hyphens (-) and underscores (_); Chinese characters are not supported',
  },
  'validation.usernamePattern': {
    zh: '用户名仅支持字母、数字和下划线 (_)',
    en: 'The username may only contain letters, digits and underscores (_)',
  },
  'validation.usernameReserved': { zh: '{{name}} 是保留的用户名，请换一个', en: '{{name}} is a reserved username, please choose another' },
  'validation.usernameLength': { zh: '用户名不能超过 100 个字符', en: 'The username cannot be longer than 100 characters' },
  'validation.number': { zh: '请输入数字', en: 'Please enter a number' },
  'validation.numberRange': { zh: '数值范围为 {{min}} - {{max}}', en: 'the number range is {{min}} - {{max}}' },
  'validation.json': { zh: '请输入正确的 JSON', en: 'Please enter the correct JSON' },
  'validation.fileExtension': { zh: '请上传扩展名为 {{extensions}} 的文件', en: 'Please upload a file with extension {{extensions}}' },
  'validation.topicRequired': { zh: '请输入主题', en: 'Topic is required' },
  'validation.topicTooLong': { zh: '主题长度不能超过 65535 字节', en: 'The topic cannot be longer than 65535 bytes' },
  'validation.topicNul': { zh: '主题不能包含空字符 (U+0000)', en: 'The topic cannot contain the null character (U+0000)' },
  'validation.topicEncoding': { zh: '主题必须是合法的 UTF-8 字符串', en: 'The topic must be a well-formed UTF-8 string' },
  'validation.topicWildcardInName': { zh: "发布主题不能包含 '#' 或 '+'", en: "A publish topic cannot contain '#' or '+'" },
  'validation.topicHash': {
    zh: "'#' 使用错误：它必须单独占据最后一级",
    en: "Invalid use of '#': it must stand alone in the last level",
  },
  'validation.topicPlus': { zh: "'+' 使用错误：它必须单独占据一级", en: "Invalid use of '+': it must fill a whole level" },
  'validation.topicShare': {
    zh: "共享订阅格式为 $share/<组名>/<主题过滤器>，组名不能包含 '+'、'#' 或 '/'",
    en: "A shared subscription is $share/<group>/<topic filter>; the group cannot contain '+', '#' or '/'",
  },
  'validation.noWildcard': { zh: '主题监控不支持通配符', en: 'Topic metrics do not support wildcards' },
});

// Format rules accept an empty value so that `required` alone decides whether one is needed.

function pattern(re: RegExp, key: string): Rule {
  return (value) => (isEmpty(value) || re.test(String(value)) ? undefined : t(key));
}

/** Names and ids: a letter or digit, then letters, digits, `-` or `_` (ASCII only, so no Chinese). */
export const namePattern: Rule = pattern(/^[a-zA-Z0-9][a-zA-Z0-9_-]*$/, 'validation.namePattern');
/** The stricter name variant that must start with a letter. */
export const strictNamePattern: Rule = pattern(/^[a-zA-Z][a-zA-Z0-9_-]*$/, 'validation.strictNamePattern');

/** Dashboard usernames as `POST /users` accepts them: `^[_a-zA-Z0-9]*$`, at most 100 characters. */
export const usernamePattern: Rule = (value) => {
  if (isEmpty(value)) return undefined;
  const s = String(value);
  if (!/^[_a-zA-Z0-9]*$/.test(s)) return t('validation.usernamePattern');
  return s.length > 100 ? t('validation.usernameLength') : undefined;
};

/**
 * Refuses the names the product reserves for itself (`root`, `administrator`, in any case).
 * The broker would accept them (emqx_dashboard_admin.erl legal_username/1 at v5.5.1 only checks
 * the characters), so this is the console's own rule; `admin`, the default user, already exists.
 */
export const reservedUsername: Rule = (value) => {
  const name = isEmpty(value) ? '' : String(value);
  return ['root', 'administrator'].includes(name.toLowerCase()) ? t('validation.usernameReserved', { name }) : undefined;
};

/** Rejects a value that is not a number between `min` and `max` inclusive. */
export function numberRange(min: number, max: number): Rule {
  return (value) => {
    if (isEmpty(value)) return undefined;
    // Number('') and Number(' ') are 0, so blank strings are caught by the trim check.
    const n = typeof value === 'number' ? value : String(value).trim() === '' ? NaN : Number(value);
    if (!Number.isFinite(n)) return t('validation.number');
    return n < min || n > max ? t('validation.numberRange', { min, max }) : undefined;
  };
}

/** Rejects text that does not parse as JSON (values already parsed pass). */
export const json: Rule = (value) => {
  if (isEmpty(value) || typeof value !== 'string') return undefined;
  try {
    JSON.parse(value);
    return undefined;
  } catch {
    return t('validation.json');
  }
};

/**
 * Rejects files whose name does not end with one of `exts` (given with or without the dot, e.g.
 * `['tar.gz']`); accepts a file name, a File, or a list of them.
 */
export function fileExtension(exts: readonly string[]): Rule {
  const suffixes = exts.map((ext) => `.${ext.replace(/^\./, '').toLowerCase()}`);
  const nameOf = (file: unknown) => (typeof file === 'string' ? file : String((file as { name?: unknown })?.name ?? ''));
  return (value) => {
    if (isEmpty(value)) return undefined;
    const files = Array.isArray(value) ? value : typeof value === 'object' && value !== null && 'length' in value ? Array.from(value as ArrayLike<unknown>) : [value];
    const ok = files.every((file) => suffixes.some((suffix) => nameOf(file).toLowerCase().endsWith(suffix)));
    return ok ? undefined : t('validation.fileExtension', { extensions: suffixes.join(', ') });
  };
}

/** What is wrong with a topic, named after the message key `validation.<problem>`. */
export type TopicProblem = 'topicRequired' | 'topicTooLong' | 'topicNul' | 'topicEncoding' | 'topicWildcardInName' | 'topicHash' | 'topicPlus' | 'topicShare';

/** A lone UTF-16 surrogate has no UTF-8 encoding, so the topic would not be well-formed [MQTT-1.5.3-1]. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function checkFilterLevels(levels: string[]): TopicProblem | undefined {
  for (const [i, level] of levels.entries()) {
    // '#' must be the last character and stand alone in its level [MQTT-4.7.1-2].
    if (level.includes('#') && (level !== '#' || i !== levels.length - 1)) return 'topicHash';
    // '+' must occupy an entire level [MQTT-4.7.1-3].
    if (level.includes('+') && level !== '+') return 'topicPlus';
  }
  return undefined;
}

/**
 * The first problem with `topic` as a publish topic name (`kind: 'name'`) or a subscription
 * filter (`kind: 'filter'`), or undefined when it is valid. Clause numbers are MQTT 3.1.1's, which
 * the broker speaks; shared subscriptions follow MQTT 5 §4.8.2 as EMQX accepts them on both.
 */
export function topicProblem(topic: string, kind: 'name' | 'filter'): TopicProblem | undefined {
  // Topic names and filters must be at least one character long [MQTT-4.7.3-1].
  if (topic === '') return 'topicRequired';
  // No U+0000 in a topic [MQTT-4.7.3-2]; checked before the length so its message is the precise one.
  if (topic.includes('\u0000')) return 'topicNul';
  if (LONE_SURROGATE.test(topic)) return 'topicEncoding';
  // A UTF-8 string is at most 65535 bytes [MQTT-4.7.3-3].
  if (new TextEncoder().encode(topic).length > 65535) return 'topicTooLong';
  // Wildcards are not allowed in topic names [MQTT-3.3.2-2].
  if (kind === 'name') return /[#+]/.test(topic) ? 'topicWildcardInName' : undefined;
  const levels = topic.split('/');
  // $share/{ShareName}/{filter}: the name is non-empty without '/', '+' or '#' [MQTT-4.8.2-1, 4.8.2-2].
  if (levels[0] === '$share') {
    if (levels.length < 3 || !levels[1] || /[#+]/.test(levels[1])) return 'topicShare';
    const filter = levels.slice(2);
    return filter.join('/') === '' ? 'topicShare' : checkFilterLevels(filter);
  }
  return checkFilterLevels(levels);
}

function topicRule(kind: 'name' | 'filter', wildcardKey?: string): Rule {
  return (value) => {
    const problem = topicProblem(isEmpty(value) ? '' : String(value), kind);
    if (!problem) return undefined;
    return t(problem === 'topicWildcardInName' && wildcardKey ? wildcardKey : `validation.${problem}`);
  };
}

/** A topic to publish to: no `+` or `#`, no NUL, not empty, at most 65535 UTF-8 bytes. */
export const topicName: Rule = topicRule('name');
/** A topic filter to subscribe to: `#` last and alone in its level, `+` a whole level (shared `$share/g/…` allowed). */
export const topicFilter: Rule = topicRule('filter');
/**
 * A publish topic that may be a template, as republish takes it (`alerts/${clientid}`): the
 * `${…}` placeholders are filled at run time, so only the literal text must be a topic name.
 * The broker refuses to publish to `alerts/#` [MQTT-3.3.2-2], so the rule would fail every message.
 */
export const publishTopic: Rule = (value, values) => topicName(isEmpty(value) ? '' : String(value).replace(/\$\{[^}]*\}/g, 'x'), values);
/** A topic for topic metrics, which counts exact topics and does not accept wildcards. */
export const noWildcard: Rule = topicRule('name', 'validation.noWildcard');
