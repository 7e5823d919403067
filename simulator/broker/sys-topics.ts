// System topics (emqx_sys, emqx_sys_mon events): `$SYS/brokers/<node>/uptime`, `datetime`,
// version and sysdescr every sys_heartbeat_interval, stats and metrics every
// sys_msg_interval, and client connected/disconnected (subscribed/unsubscribed) event messages
// when sys_event_messages enables them. Timers follow PUT /configs/sys_topics and stop on close.
import type { Aedes, Client, Subscription } from 'aedes';
import { parseDuration } from '../lib/units.ts';
import type { Store } from '../store/index.ts';
import { connectInfo } from './connect.ts';

interface SysTopics {
  sys_msg_interval: string;
  sys_heartbeat_interval: string;
  sys_event_messages: Record<'client_connected' | 'client_disconnected' | 'client_subscribed' | 'client_unsubscribed', boolean>;
}

/** Installs the $SYS publishers. */
export function installSysTopics(broker: Aedes, store: Store): void {
  const node = store.cluster.self;
  const base = `$SYS/brokers/${node}`;
  const startedAt = store.clock.now();
  const config = () => store.configRoots.get('sys_topics') as unknown as SysTopics;

  const publish = (topic: string, payload: string) => {
    if (broker.closed) return;
    broker.publish({ cmd: 'publish', topic, payload: Buffer.from(payload), qos: 0, retain: false, dup: false }, () => undefined);
  };

  // EMQX publishes `$SYS/brokers`, version and sysdescr once, retained. Aedes would hand retained
  // `$SYS/` messages to `#` subscribers ([MQTT-4.7.2-1] forbids it), so here they go out with
  // every heartbeat instead, not retained.
  const heartbeat = () => {
    publish(`${base}/uptime`, String(store.clock.now() - startedAt));
    publish(`${base}/datetime`, new Date(store.clock.now()).toISOString());
    publish('$SYS/brokers', store.cluster.names().join(','));
    publish(`${base}/version`, store.profile.version);
    publish(`${base}/sysdescr`, 'EMQX');
  };
  const statsTick = () => {
    for (const [name, value] of Object.entries(store.cluster.stats(node) ?? {})) publish(`${base}/stats/${name.replace(/\./g, '/')}`, String(value));
    for (const [name, value] of Object.entries(store.cluster.metrics(node) ?? {})) publish(`${base}/metrics/${name.replace(/\./g, '/')}`, String(value));
  };

  let timers: NodeJS.Timeout[] = [];
  const schedule = () => {
    for (const timer of timers) clearInterval(timer);
    timers = [];
    const { sys_heartbeat_interval: hb, sys_msg_interval: msg } = config();
    for (const [interval, tick] of [[hb, heartbeat], [msg, statsTick]] as const) {
      const ms = interval === 'disabled' ? null : parseDuration(interval);
      if (!ms || ms <= 0) continue;
      const timer = setInterval(tick, Math.max(ms, 10));
      timer.unref();
      timers.push(timer);
    }
  };

  schedule();
  store.configRoots.onChange((root) => {
    if (root === 'sys_topics') schedule();
  });
  broker.once('closed', () => {
    for (const timer of timers) clearInterval(timer);
    timers = [];
  });

  const enabled = (event: keyof SysTopics['sys_event_messages']) => config().sys_event_messages[event] === true;
  // The client id goes into the topic as it is (as EMQX does); only wildcards, which a topic name
  // cannot hold, are percent-encoded.
  const clientTopic = (client: Client, event: string) => `${base}/clients/${client.id.replace(/[+#]/g, encodeURIComponent)}/${event}`;

  broker.on('client', (client) => {
    if (!enabled('client_connected')) return;
    const info = connectInfo(client);
    const session = store.mqtt.sessions.get(client.id);
    const now = store.clock.now();
    publish(clientTopic(client, 'connected'), JSON.stringify({
      clientid: client.id,
      username: info?.username ?? null,
      ipaddress: session?.ip_address ?? '',
      sockport: session?.port ?? 0,
      proto_name: info?.protoName ?? 'MQTT',
      proto_ver: info?.protoVer ?? 4,
      keepalive: info?.keepalive ?? 0,
      clean_start: info?.clean ?? true,
      expiry_interval: 0,
      connected_at: now,
      ts: now,
    }));
  });

  broker.on('clientDisconnect', (client) => {
    if (!enabled('client_disconnected')) return;
    const now = store.clock.now();
    publish(clientTopic(client, 'disconnected'), JSON.stringify({
      clientid: client.id,
      username: connectInfo(client)?.username ?? null,
      reason: 'normal',
      disconnected_at: now,
      ts: now,
    }));
  });

  broker.on('subscribe', (subs: Subscription[], client) => {
    if (!client || !enabled('client_subscribed')) return;
    for (const sub of subs) publish(clientTopic(client, 'subscribed'), JSON.stringify({ clientid: client.id, topic: sub.topic, subopts: { qos: sub.qos }, ts: store.clock.now() }));
  });

  broker.on('unsubscribe', (topics: string[], client) => {
    if (!client || client.closed || !enabled('client_unsubscribed')) return;
    for (const topic of topics) publish(clientTopic(client, 'unsubscribed'), JSON.stringify({ clientid: client.id, topic, ts: store.clock.now() }));
  });
}
