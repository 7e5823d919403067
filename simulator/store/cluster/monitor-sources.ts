// Where the monitor's figures come from, node by node: node 1 from the live MQTT state, the other
// nodes from their fixture clients; and the shapes of the history the demo seed back-fills.
import type { Cluster } from './cluster.ts';
import { SELF_NODE } from './cluster.ts';
import type { Counters, HistoryProfile, MonitorSource } from './monitor.ts';
import type { MqttState } from '../messaging/mqtt.ts';
import type { RouteTable } from '../messaging/routes.ts';

const HOUR = 3_600_000;

// Node 1 has no fixture clients: its history is that of a busy core node, fading at the end
// into whatever is really connected when the simulator starts.
const NODE1_PROFILE: Pick<HistoryProfile, 'gauges' | 'rates'> = {
  gauges: { connections: 48, live_connections: 44, subscriptions: 130, topics: 0 },
  rates: { received: 36, sent: 54, dropped: 0.8 },
};

// Cluster-wide topics of the history, at least this many so the chart is not flat at zero.
const HISTORY_TOPICS = 60;

/** One source per node in cluster order. */
export function monitorSources(mqtt: MqttState, routes: RouteTable, cluster: Cluster, rules: { readonly totals: { matched: number; executed: number; delivered: number } }): MonitorSource[] {
  const node1: MonitorSource = {
    node: SELF_NODE,
    gauges: () => ({
      connections: mqtt.sessions.size,
      live_connections: mqtt.liveConnections,
      subscriptions: mqtt.subscriptions,
      topics: routes.topicCount,
    }),
    // emqx_dashboard_monitor.erl stats/1 (e5.8.9, 6.2.2): each delta sampler reads one counter.
    counters: () => ({
      received: mqtt.metrics['messages.received'],
      sent: mqtt.metrics['messages.sent'],
      dropped: mqtt.metrics['messages.dropped'],
      validation_succeeded: mqtt.metrics['messages.validation_succeeded'],
      validation_failed: mqtt.metrics['messages.validation_failed'],
      transformation_succeeded: mqtt.metrics['messages.transformation_succeeded'],
      transformation_failed: mqtt.metrics['messages.transformation_failed'],
      persisted: mqtt.metrics['messages.persisted'],
      rules_matched: rules.totals.matched,
      actions_executed: rules.totals.executed,
      actions_messages: rules.totals.delivered,
    }),
  };
  const others = cluster.fixtureNodes.map((fixture): MonitorSource => ({
    node: fixture.name,
    gauges: () => {
      const stats = cluster.stats(fixture.name) ?? {};
      return {
        connections: stats['connections.count'] ?? 0,
        live_connections: stats['live_connections.count'] ?? 0,
        subscriptions: stats['subscriptions.count'] ?? 0,
        topics: routes.topicCount,
      };
    },
    counters: () => {
      const metrics = fixture.metrics();
      return { received: metrics['messages.received'], sent: metrics['messages.sent'], dropped: metrics['messages.dropped'] };
    },
  }));
  return [node1, ...others];
}

/** History shapes: node 1 from a fixed profile, the others from their fixture clients' rates. */
export function historyProfiles(sources: readonly MonitorSource[], routes: RouteTable, cluster: Cluster, now: number): Map<string, HistoryProfile> {
  const profiles = new Map<string, HistoryProfile>();
  const topics = Math.max(routes.topicCount, HISTORY_TOPICS);
  const idle: Counters = { received: 0, sent: 0, dropped: 0 };
  profiles.set(SELF_NODE, {
    gauges: { ...NODE1_PROFILE.gauges, topics },
    rates: NODE1_PROFILE.rates,
    endGauges: sources[0].gauges(),
    endRates: idle,
  });
  cluster.fixtureNodes.forEach((fixture, i) => {
    let received = 0;
    let sent = 0;
    for (const client of fixture.clients.values()) {
      received += client.recvRate;
      sent += client.sendRate;
    }
    const gauges = sources[i + 1].gauges();
    profiles.set(fixture.name, {
      gauges: { ...gauges, topics },
      rates: { received, sent, dropped: received * 0.03 },
      endGauges: gauges,
      // The third node was restarted two days ago: forty minutes without samples.
      outages: i === 1 ? [[now - 48 * HOUR - 40 * 60_000, now - 48 * HOUR]] : [],
    });
  });
  return profiles;
}
