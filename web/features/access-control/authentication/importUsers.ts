/**
 * Reading a user import file in the browser (api part2 §2.1 import formats): CSV with the
 * template's header or a JSON array, turned into the JSON array `POST …/import_users` accepts.
 * A malformed file is refused here with the reason, so nothing is sent.
 */
import { t } from '../../../lib/i18n.ts';
import './messages.ts';

export type ImportType = 'plain' | 'hash';

export const HEADERS: Record<ImportType, string[]> = {
  plain: ['user_id', 'password', 'is_superuser'],
  hash: ['user_id', 'password_hash', 'salt', 'is_superuser'],
};

/** The template file of a format (what EMQX's console offers for download). */
export function template(type: ImportType, format: 'csv' | 'json'): string {
  const rows = type === 'plain'
    ? [{ user_id: 'user1', password: 'password1', is_superuser: true }, { user_id: 'user2', password: 'password2', is_superuser: false }]
    : [{ user_id: 'user1', password_hash: 'c5e46903df45e5dc096dc74657610dbee8deaacae656df88a1788f1847390242', salt: 'e378187547bf2d6f0e6a689b06ee1ef7', is_superuser: true }];
  if (format === 'json') return JSON.stringify(rows, null, 2);
  return [HEADERS[type].join(','), ...rows.map((r) => HEADERS[type].map((k) => String((r as Record<string, unknown>)[k])).join(','))].join('\n') + '\n';
}

const cell = (s: string) => s.trim().replace(/^"(.*)"$/, '$1');

/** Parses the file text; throws an Error with a translated message when it is malformed. */
export function parseUsers(name: string, text: string, type: ImportType): Record<string, unknown>[] {
  if (/\.json$/i.test(name)) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new Error(t('authn.badFile', { reason: (error as Error).message }));
    }
    if (!Array.isArray(data) || data.some((u) => !u || typeof u !== 'object' || !(u as Record<string, unknown>).user_id)) {
      throw new Error(t('authn.badFile', { reason: 'expected an array of objects with user_id' }));
    }
    return data as Record<string, unknown>[];
  }
  const lines = text.split(/\r?\n/).filter((line) => line.trim());
  const header = (lines[0] ?? '').split(',').map(cell);
  const want = HEADERS[type];
  if (header.join(',') !== want.join(',') && !(type === 'hash' && header.join(',') === 'user_id,password_hash,is_superuser')) {
    throw new Error(t('authn.csvHeader', { header: want.join(',') }));
  }
  return lines.slice(1).map((line, i) => {
    const cells = line.split(',').map(cell);
    if (cells.length !== header.length || !cells[0]) throw new Error(t('authn.badFile', { reason: `line ${i + 2}` }));
    const user: Record<string, unknown> = Object.fromEntries(header.map((key, j) => [key, cells[j]]));
    user.is_superuser = user.is_superuser === 'true';
    return user;
  });
}
