/**
 * The broker configuration pages as declarations for `ConfigPage`: endpoint (emqx-api-part1
 * §11, §15, §22.2, §23), schema component of `/schemas/hotconf`, and overrides as data.
 */
import { createElement } from 'react';
import { t } from '../../../lib/i18n.ts';
import { isDuration, isRate } from '../../../lib/units.ts';
import type { ConfigPageDecl, ConfigSection } from '../../../ui/ConfigPage.tsx';
import type { FieldDecl } from '../../../ui/resource.ts';
import { tlsFields } from '../../../ui/tls.ts';
import PrometheusHelp from './PrometheusHelp.tsx';
import './messages.ts';

/** The help of a config root's fields (help.ts), loaded lazily with the section. */
export const help = (root: string) => () => import('./help.ts').then((m) => m.helpOf(root));

/** `config.messagesRate` for `messages_rate`. */
const labelOf = (name: string) => `config.${name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())}`;
const rate = (name: string): FieldDecl => ({ name, label: labelOf(name), rules: [rateRule], placeholder: 'infinity' });

/** 'Please enter a properly formatted rate configuration' unless empty or a rate (a burst: `isRate` with `burst`). */
const limitRule = (burst: boolean) => (value: unknown): string | undefined => (value === undefined || value === '' || isRate(String(value), burst) ? undefined : t('config.badRate'));
export const rateRule = limitRule(false);
const LIMIT_RULES = [rateRule, limitRule(true)];

/**
 * The limiter fields of 5.10 and later (emqx_limiter_schema.erl fields(mqtt)), flat on a listener
 * and under `limiter.` in the zone: a rate and a burst for new connections, messages and bytes.
 */
export function limiterFields(prefix: string): FieldDecl[] {
  return ['max_conn', 'messages', 'bytes'].flatMap((limiter) => ['rate', 'burst'].map((kind, burst) => ({
    name: `${prefix}${limiter}_${kind}`, label: labelOf(`${limiter}_${kind}`), rules: [LIMIT_RULES[burst]], placeholder: burst ? '' : 'infinity',
    requires: 'listenerLimits' as const, section: 'config.rateLimits',
  })));
}

/**
 * The PUT body without the limiter fields left empty (the broker takes no empty rate). A listener
 * update is merged into the old config (emqx_listeners.erl pre_config_update/3 deep_merge), so
 * there an emptied rate is sent as `infinity`, no limit; the zone's `limiter` is replaced whole.
 */
export function withoutEmptyLimits(body: Record<string, unknown>, merged = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value !== '' || !/_(rate|burst)$/.test(key)) out[key] = value;
    else if (merged && key.endsWith('_rate')) out[key] = 'infinity';
  }
  return out;
}

const SESSION = ['max_subscriptions', 'upgrade_qos', 'max_inflight', 'retry_interval', 'max_awaiting_rel', 'await_rel_timeout',
  'session_expiry_interval', 'max_mqueue_len', 'mqueue_priorities', 'mqueue_default_priority', 'mqueue_store_qos0'];

const mqttTabs = [
  { path: '/mqtt/general', title: 'config.general' },
  { path: '/mqtt/session', title: 'config.session' },
  { path: '/mqtt/retainer', title: 'config.retainer' },
  { path: '/mqtt/system-topic', title: 'config.systemTopic' },
];
const mqtt = (active: string, section: ConfigSection): ConfigPageDecl => ({ title: 'config.mqtt', tabs: mqttTabs, active, sections: [section] });

export const mqttPages: Record<string, ConfigPageDecl> = {
  '/mqtt/general': mqtt('/mqtt/general', {
    name: 'mqtt-general', path: '/configs/global_zone', key: 'mqtt', component: 'broker.mqtt', help: help('mqtt'),
    overrides: { hidden: SESSION, order: ['max_packet_size', 'max_clientid_len', 'max_topic_levels', 'max_qos_allowed', 'max_topic_alias'] },
    // The zone's limiter (5.10 and later), shared by all of the zone's clients.
    fields: limiterFields('limiter.'),
    toBody: (body) => (body.limiter ? { ...body, limiter: withoutEmptyLimits(body.limiter as Record<string, unknown>) } : body),
  }),
  '/mqtt/session': mqtt('/mqtt/session', {
    name: 'mqtt-session', path: '/configs/global_zone', key: 'mqtt', component: 'broker.mqtt', help: help('mqtt'),
    overrides: {
      include: SESSION, order: SESSION,
      // The broker answers "infinity" (emqx-api-part1 §22.2) where the schema reference says Duration.
      fields: { retry_interval: { keywords: ['infinity'], rules: [(v) => (v === undefined || v === '' || v === 'infinity' || isDuration(String(v)) ? undefined : t('schemaForm.badDuration'))] } },
    },
  }),
  '/mqtt/retainer': mqtt('/mqtt/retainer', {
    name: 'retainer', path: '/mqtt/retainer', component: 'retainer.retainer', help: help('retainer'),
    overrides: {
      hidden: ['backend.index_specs'],
      order: ['enable', 'backend.storage_type', 'backend.max_retained_messages', 'max_payload_size', 'msg_expiry_interval', 'msg_clear_interval', 'delivery_rate'],
      fields: {
        'backend.max_retained_messages': { help: 'config.zeroUnlimited' },
        msg_expiry_interval: { help: 'config.zeroNever' },
        msg_clear_interval: { help: 'config.zeroNever' },
        delivery_rate: { rules: [rateRule] },
      },
    },
  }),
  '/mqtt/system-topic': mqtt('/mqtt/system-topic', { name: 'sys-topics', path: '/configs/sys_topics', component: 'broker.sys_topics', help: help('sys_topics') }),
};

export const logPage: ConfigPageDecl = {
  title: 'config.log',
  sections: [{
    name: 'log', path: '/configs/log', component: 'emqx.log', help: help('log'),
    overrides: {
      // The audit handler exists on Enterprise only (emqx_audit); Community brokers refuse it.
      requires: { audit: 'audit' },
      groups: [
        { title: 'config.consoleHandler', fields: ['console.enable', 'console.level', 'console.formatter', 'console.time_offset'] },
        { title: 'config.fileHandler', fields: ['file.enable', 'file.level', 'file.path', 'file.rotation_count', 'file.rotation_size', 'file.formatter', 'file.time_offset'] },
        { title: 'config.auditHandler', fields: ['audit.enable', 'audit.max_filter_size', 'audit.ignore_high_frequency_request', 'audit.path', 'audit.rotation_count', 'audit.rotation_size', 'audit.time_offset'] },
      ],
    },
  }],
};

const monitoringTabs = [
  { path: '/monitoring/alarm-settings', title: 'config.alarmSettings' },
  { path: '/monitoring/integration', title: 'config.integration' },
];

export const monitoringPages: Record<string, ConfigPageDecl> = {
  '/monitoring/alarm-settings': {
    title: 'config.monitoring', tabs: monitoringTabs, active: '/monitoring/alarm-settings',
    sections: [
      { name: 'alarm', title: 'config.alarm', path: '/configs/alarm', component: 'broker.alarm', help: help('alarm') },
      { name: 'sysmon', title: 'config.sysmon', path: '/configs/sysmon', component: 'broker.sysmon', help: help('sysmon') },
    ],
  },
  '/monitoring/integration': {
    title: 'config.monitoring', tabs: monitoringTabs, active: '/monitoring/integration',
    sections: [
      {
        name: 'prometheus', title: 'config.prometheus', path: '/prometheus', component: 'prometheus.recommend_setting', help: help('prometheus'),
        overrides: { fields: { 'push_gateway.headers': { kind: 'code' } } },
        after: () => createElement(PrometheusHelp, {}),
      },
      {
        name: 'opentelemetry', title: 'config.opentelemetry', path: '/opentelemetry', component: 'opentelemetry.opentelemetry', requires: 'openTelemetry', help: help('opentelemetry'),
        overrides: {
          include: ['exporter.endpoint', 'metrics', 'logs.enable', 'logs.level', 'traces.enable', 'traces.filter.trace_all'],
          order: ['exporter', 'metrics', 'logs.enable', 'logs', 'traces'],
        },
        fields: tlsFields('exporter.ssl_options'),
      },
    ],
  },
};

export const limiterPage: ConfigPageDecl = {
  title: 'config.limiter',
  sections: [{ name: 'limiter', path: '/configs/limiter', help: help('limiter'), fields: [rate('max_conn_rate'), rate('messages_rate'), rate('bytes_rate')] }],
};

/** Basic Config's tabs (one route, the tab in the query so a reload keeps it). */
export const basicConfigTabs = [
  { path: '/basic-config?tab=zone', title: 'config.zone' },
  { path: '/basic-config?tab=dashboard', title: 'config.dashboard' },
  { path: '/basic-config?tab=file', title: 'config.configFile' },
];
const basic = (tab: string, sections: ConfigSection[]): ConfigPageDecl => ({ title: 'config.basic', tabs: basicConfigTabs, active: `/basic-config?tab=${tab}`, sections });

// The dashboard root's schema component, joined so that it does not read as a message key.
const DASHBOARD_SCHEMA = ['dashboard', 'dashboard'].join('.');

/** The zone tab (force shutdown, force GC of `/configs/global_zone`) and the dashboard tab. */
export const basicConfigPages: Record<'zone' | 'dashboard', ConfigPageDecl> = {
  zone: basic('zone', [
    { name: 'force-shutdown', title: 'config.forceShutdown', path: '/configs/global_zone', key: 'force_shutdown', component: 'broker.force_shutdown', help: help('force_shutdown') },
    {
      name: 'force-gc', title: 'config.forceGc', path: '/configs/global_zone', key: 'force_gc', component: 'broker.force_gc', help: help('force_gc'),
      overrides: { labels: { count: 'config.gcCount', bytes: 'config.gcBytes' } },
    },
  ]),
  dashboard: basic('dashboard', [{
    name: 'dashboard', path: '/configs/dashboard', component: DASHBOARD_SCHEMA, help: help('dashboard'),
    overrides: {
      // Single sign-on and the HTTPS certificates stay as they are (editable in the configuration file).
      hidden: ['sso', 'listeners.https.ssl_options'],
      groups: [
        { title: 'config.general', fields: ['token_expired_time', 'cors'] },
        { title: 'config.httpListener', fields: ['listeners.http'] },
        { title: 'config.httpsListener', fields: ['listeners.https'] },
      ],
      fields: { 'listeners.http.bind': { help: 'config.bindHelp' }, 'listeners.https.bind': { help: 'config.bindHelp' } },
    },
  }]),
};
