// The MQTT listeners every simulated node runs (emqx-api-part1 §22.1): `tcp:default` and
// `ws:default`, with per-node running state and current connections counted from the sessions
// that came in through each. Read-only for now: binds are the ports main.ts really listens on.
import type { Cluster } from './cluster.ts';
import type { MqttState } from './mqtt.ts';

export interface ListenerStatus {
  running: boolean | 'inconsistent';
  max_connections: number | 'infinity';
  current_connections: number;
}

export interface ListenerView {
  id: string;
  type: string;
  name: string;
  enable: boolean;
  number: number;
  bind: string;
  acceptors: number;
  status: ListenerStatus;
  node_status: { node: string; status: ListenerStatus }[];
}

const TYPES = ['tcp', 'ws'] as const;
type ListenerType = (typeof TYPES)[number];

export class Listeners {
  /** EMQX's default binds until main.ts reports the real ports. */
  private readonly binds: Record<ListenerType, string> = { tcp: '0.0.0.0:1883', ws: '0.0.0.0:8083' };

  constructor(
    private readonly mqtt: MqttState,
    private readonly cluster: Cluster,
  ) {}

  /** Records where a listener really listens (`host:port`). */
  setBind(type: ListenerType, bind: string): void {
    this.binds[type] = bind;
  }

  private current(node: string, id: string): number {
    if (node === this.cluster.self) {
      let count = 0;
      for (const session of this.mqtt.sessions.values()) if (session.connected && session.listener === id) count++;
      return count;
    }
    let count = 0;
    for (const client of this.cluster.fixtureNode(node)?.clients.values() ?? []) if (client.connected && client.listener === id) count++;
    return count;
  }

  /** `GET /listeners` rows, optionally of one type. */
  list(type?: string): ListenerView[] {
    return TYPES.filter((t) => !type || t === type).map((t) => {
      const id = `${t}:default`;
      const running = this.cluster.all().filter((n) => n.node_status === 'running').map((n) => n.node);
      const node_status = running.map((node) => ({
        node,
        status: { running: true, max_connections: 'infinity' as const, current_connections: this.current(node, id) },
      }));
      return {
        id, type: t, name: 'default', enable: true, number: node_status.length, bind: this.binds[t], acceptors: 16,
        status: { running: true, max_connections: 'infinity', current_connections: node_status.reduce((n, s) => n + s.status.current_connections, 0) },
        node_status,
      };
    });
  }
}
