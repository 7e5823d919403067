/**
 * The form rules the login page and every form need (required fields, the password rule); the
 * other rules are in validators.ts, which re-exports these. Each rule takes the field's value
 * (and the whole form) and returns a translated message or undefined.
 */
import { defineMessages, t } from './i18n.ts';

/**
 * A form rule: the translated problem with `value`, or undefined when it is acceptable; `label` is
 * the field's label as shown (the form passes it), for messages that name the field.
 */
export type Rule = (value: unknown, values: Record<string, unknown>, label?: string) => string | undefined;

defineMessages({
  // One wording for every empty required field, the specification's ('Username is required').
  'validation.required': { zh: '请输入{{field}}', en: '{{field}} is required' },
  'validation.usernameRequired': { zh: '请输入用户名', en: 'Username is required' },
  'validation.passwordRequired': { zh: '请输入密码', en: 'Password is required' },
  'validation.password': {
    zh: '密码须为 8 至 64 位可打印 ASCII 字符，且至少包含字母、数字、符号（含空格）中的两种',
    en: 'The password must be 8 to 64 printable ASCII characters combining at least two of letters, numbers and symbols (space included)',
  },
  'validation.notSameAs': { zh: '新旧密码不能相同', en: 'The new and old passwords cannot be the same' },
  'validation.sameAs': { zh: '两次输入不一致', en: "Two inputs don't match!" },
  'validation.time': { zh: '请按 YYYY-MM-DD HH:mm:ss 格式输入时间', en: 'Enter a time as YYYY-MM-DD HH:mm:ss' },
});

/** Whether a value counts as not filled in: undefined, null, '' or an empty list. */
export function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** "<label> is required" for a field's label (an i18n key or the text itself). */
export const requiredText = (label = '') => t('validation.required', { field: t(label) });

/** Rejects an empty value with "<label> is required", or the message under `key`. */
export function required(key?: string): Rule {
  return (value, _values, label) => (isEmpty(value) ? (key ? t(key) : requiredText(label)) : undefined);
}

/** Rejects an empty username with 'Username is required'. */
export const usernameRequired: Rule = required('validation.usernameRequired');
/** Rejects an empty password with 'Password is required'. */
export const passwordRequired: Rule = required('validation.passwordRequired');

/**
 * Whether `s` follows EMQX's `legal_password`: 8–64 printable ASCII characters from at least two
 * of the classes letters, digits and other symbols (space counts as a symbol).
 */
export function isValidPassword(s: string): boolean {
  if (s.length < 8 || s.length > 64 || !/^[\x20-\x7e]*$/.test(s)) return false;
  const classes = [/[a-zA-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((re) => re.test(s)).length;
  return classes >= 2;
}

/** Rejects a password that breaks the server's password rule. */
export const password: Rule = (value) => (isEmpty(value) || isValidPassword(String(value)) ? undefined : t('validation.password'));

/** Rejects a time field's text that is no time (the widget passes such text on as it is). */
export const validTime: Rule = (value) => (isEmpty(value) || !Number.isNaN(Date.parse(String(value))) ? undefined : t('validation.time'));

/** Rejects a new password equal to the one in `field` (the old password). */
export function notSameAs(field: string): Rule {
  return (value, values) => (!isEmpty(value) && value === values[field] ? t('validation.notSameAs') : undefined);
}

/** Rejects a confirmation that differs from the value in `field`. */
export function sameAs(field: string): Rule {
  return (value, values) => (value !== values[field] ? t('validation.sameAs') : undefined);
}

/** Runs `rules` in order and returns the first message, or undefined when all pass. */
export function validate(rules: readonly Rule[], value: unknown, values: Record<string, unknown> = {}, label?: string): string | undefined {
  for (const rule of rules) {
    const message = rule(value, values, label);
    if (message) return message;
  }
  return undefined;
}
