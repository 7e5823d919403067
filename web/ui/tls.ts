/**
 * The TLS field group for hand-declared forms (listeners, connectors): `tlsFields('ssl_options')`
 * gives enable, verify, CA/cert/key as PEM (typed or uploaded), SNI, versions and ciphers under
 * that prefix, with the 'Missing Cert or Key' check. Names are flat dotted paths (lib/paths.ts).
 */
import { defineMessages, t } from '../lib/i18n.ts';
import type { Rule } from '../lib/validators.ts';
import type { FieldDecl } from './resource.ts';

defineMessages({
  'tls.section': { zh: 'TLS', en: 'TLS' },
  'tls.enable': { zh: '启用 TLS', en: 'Enable TLS' },
  'tls.verify': { zh: '验证对端证书', en: 'Verify peer' },
  'tls.cacertfile': { zh: 'CA 证书', en: 'CA Cert' },
  'tls.certfile': { zh: '证书', en: 'TLS Cert' },
  'tls.keyfile': { zh: '私钥', en: 'TLS Key' },
  'tls.serverNameIndication': { zh: 'SNI', en: 'SNI' },
  'tls.versions': { zh: 'TLS 版本', en: 'TLS Versions' },
  'tls.ciphers': { zh: '加密套件', en: 'Ciphers' },
  'tls.missingCertOrKey': { zh: '缺少证书或私钥', en: 'Missing Cert or Key' },
});

const filled = (value: unknown) => typeof value === 'string' && value.trim() !== '';

/**
 * Fields of a TLS block under `prefix`. `server` (listeners) needs both cert and key; a client
 * may have neither, but never only one of them.
 */
export function tlsFields(prefix: string, options: { server?: boolean; withEnable?: boolean } = {}): FieldDecl[] {
  const name = (key: string) => (prefix ? `${prefix}.${key}` : key);
  const withEnable = options.withEnable ?? !options.server;
  const on = (values: Record<string, unknown>) => !withEnable || Boolean(values[name('enable')]);
  const pair = (other: string): Rule => (value, values) => {
    if (!on(values)) return undefined;
    const mine = filled(value);
    const theirs = filled(values[name(other)]);
    if (options.server ? !mine : !mine && theirs) return t('tls.missingCertOrKey');
    return undefined;
  };
  const section = 'tls.section';
  const fields: FieldDecl[] = [
    { name: name('verify'), label: 'tls.verify', kind: 'select', section, visible: on,
      options: [{ value: 'verify_none', label: 'verify_none' }, { value: 'verify_peer', label: 'verify_peer' }] },
    { name: name('cacertfile'), label: 'tls.cacertfile', kind: 'cert', section, visible: on },
    { name: name('certfile'), label: 'tls.certfile', kind: 'cert', section, visible: on, rules: [pair('keyfile')] },
    { name: name('keyfile'), label: 'tls.keyfile', kind: 'cert', section, visible: on, rules: [pair('certfile')] },
    { name: name('server_name_indication'), label: 'tls.serverNameIndication', section, visible: on },
    { name: name('versions'), label: 'tls.versions', kind: 'list', section, visible: on },
    { name: name('ciphers'), label: 'tls.ciphers', kind: 'list', section, visible: on },
  ];
  return withEnable ? [{ name: name('enable'), label: 'tls.enable', kind: 'switch', section }, ...fields] : fields;
}
