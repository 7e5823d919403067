/**
 * The authorization source types (api part2 §3.2) as a registry keyed by `type`: fields and
 * defaults from the shared blocks. The wizard, the settings tab and the list read this table.
 */
import { t } from '../../../lib/i18n.ts';
import { isEmpty, numberRange, type Rule } from '../../../lib/validators.ts';
import { defaults, duration, http, jsonObject, ldap, mongo, redis, sql, ssl, type KindDecl } from '../blocks.ts';
import './messages.ts';

const withSsl = (values: Record<string, unknown>) => ({ ...values, ssl: defaults.ssl });

/** EMQX's default ACL file (etc/acl.conf): dashboard and localhost may read $SYS, everything else allowed. */
export const DEFAULT_ACL = [
  '{allow, {username, {re, "^dashboard$"}}, subscribe, ["$SYS/#"]}.',
  '{allow, {ipaddr, "127.0.0.1"}, all, ["$SYS/#", "#"]}.',
  '{deny, all, subscribe, ["$SYS/#", {eq, "#"}]}.',
  '{allow, all}.',
].join('\n');

/**
 * A light check of ACL file text before the broker parses it: every rule is a `{…}` term closed
 * by a full stop, with balanced brackets and strings; `%` starts a comment. The broker stays the
 * judge of the terms themselves.
 */
export const aclText: Rule = (value) => {
  if (isEmpty(value)) return undefined;
  const text = String(value);
  let depth = 0;
  let line = 1;
  let needDot = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '\n') line += 1;
    if (c === '%') { while (i + 1 < text.length && text[i + 1] !== '\n') i += 1; continue; }
    if (c === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) return t('authz.aclBad', { line });
      i = end;
      continue;
    }
    if (depth === 0 && /\s/.test(c)) continue;
    if (depth === 0 && needDot) {
      if (c !== '.') return t('authz.aclBad', { line });
      needDot = false;
      continue;
    }
    if (depth === 0 && c !== '{') return t('authz.aclBad', { line });
    if ('{['.includes(c)) depth += 1;
    if ('}]'.includes(c)) {
      depth -= 1;
      if (depth < 0) return t('authz.aclBad', { line });
      if (depth === 0) needDot = true;
    }
  }
  return depth !== 0 || needDot ? t('authz.aclBad', { line }) : undefined;
};

const SQL_QUERY = 'SELECT action, permission, topic FROM mqtt_acl WHERE username = ${username}';

export const AUTHZ_KINDS: Record<string, KindDecl> = {
  built_in_database: {
    fields: [{ name: 'max_rules', label: 'authz.maxRules', kind: 'number', rules: [numberRange(1, 100000)], requires: 'authzMaxRules' }],
    defaults: { max_rules: 100 },
  },
  file: {
    fields: [{ name: 'rules', label: 'authz.fileRules', kind: 'code', required: true, rules: [aclText], help: 'authz.fileRulesHelp' }],
    defaults: { rules: DEFAULT_ACL },
  },
  http: {
    fields: [...http, ...ssl],
    defaults: withSsl(defaults.http('30s', { username: '${username}', clientid: '${clientid}', topic: '${topic}', action: '${action}' })),
    json: ['headers', 'body'],
  },
  mysql: {
    fields: [...sql, { name: 'query', label: 'access.query', kind: 'code', required: true }, ...ssl],
    defaults: withSsl({ ...defaults.sql('127.0.0.1:3306'), query: SQL_QUERY }),
  },
  postgresql: {
    fields: [...sql, { name: 'query', label: 'access.query', kind: 'code', required: true }, { name: 'disable_prepared_statements', label: 'access.disablePrepared', kind: 'switch' }, ...ssl],
    defaults: withSsl({ ...defaults.sql('127.0.0.1:5432'), query: SQL_QUERY, disable_prepared_statements: false }),
  },
  mongodb: {
    fields: [...mongo, { name: 'collection', label: 'access.collection', required: true }, { name: 'filter', label: 'access.filter', kind: 'code', rules: [jsonObject], help: 'access.jsonHelp' },
      { name: 'limit', label: 'authz.limit', kind: 'number', rules: [numberRange(1, 100000)] }, { name: 'skip', label: 'authz.skip', kind: 'number', rules: [numberRange(0, 100000)] }, ...ssl],
    defaults: withSsl({ ...defaults.mongo, collection: 'mqtt_acl', filter: { username: '${username}' }, limit: 1000, skip: 0 }),
    json: ['filter'],
  },
  redis: {
    fields: [...redis, { name: 'cmd', label: 'access.cmd', required: true }, ...ssl],
    defaults: withSsl({ ...defaults.redis, cmd: 'HGETALL mqtt_acl:${username}' }),
  },
  ldap: {
    fields: [...ldap, ...['publish_attribute', 'subscribe_attribute', 'all_attribute'].map((name) => ({ name, label: `authz.${name}` })), ...ssl],
    defaults: withSsl({ ...defaults.ldap, publish_attribute: 'mqttPublishTopic', subscribe_attribute: 'mqttSubscriptionTopic', all_attribute: 'mqttPubSubTopic' }),
  },
};

/** The order the create wizard offers types in. */
export const AUTHZ_TYPES = Object.keys(AUTHZ_KINDS);
