// Alarms (emqx_alarm, emqx_mgmt_api_alarms): active alarms and the history of deactivated ones.
// The demo seed loads fixtures/alarms.json, whose entries are alarm objects as the API returns
// them with times given relative to start: `duration` for how long an alarm has been active and,
// for history entries, `deactivated_ago` for how long ago it cleared.
import { readFileSync } from 'node:fs';
import type { Clock } from '../../plugins/clock.ts';
import { paginate, type PageEnvelope, type PageQuery } from '../pagination.ts';
import { rfc3339 } from '../../lib/time.ts';

interface AlarmRecord {
  node: string;
  name: string;
  message: string;
  details: Record<string, unknown>;
  activate_at: number;
  deactivate_at: number | null;
}

export interface AlarmView {
  node: string;
  name: string;
  message: string;
  details: Record<string, unknown>;
  duration: number;
  activate_at: string;
  deactivate_at?: string;
}

interface AlarmFixture {
  node: string;
  name: string;
  message: string;
  details: Record<string, unknown>;
  duration: number;
  deactivated_ago?: number;
}

const FIXTURE = new URL('../../../fixtures/alarms.json', import.meta.url);

export class Alarms {
  private active: AlarmRecord[] = [];
  private history: AlarmRecord[] = [];

  constructor(private readonly clock: Clock) {}

  /** Loads the demo alarms of the nodes that exist. */
  seed(nodes: readonly string[]): void {
    const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { active: AlarmFixture[]; history: AlarmFixture[] };
    const now = this.clock.now();
    const known = (a: AlarmFixture) => nodes.includes(a.node);
    this.active = fixture.active.filter(known).map((a) => ({
      node: a.node, name: a.name, message: a.message, details: a.details,
      activate_at: now - a.duration, deactivate_at: null,
    }));
    this.history = fixture.history.filter(known).map((a) => {
      const end = now - (a.deactivated_ago ?? 0);
      return { node: a.node, name: a.name, message: a.message, details: a.details, activate_at: end - a.duration, deactivate_at: end };
    });
  }

  /** Raises an alarm on a node unless one of that name is already active there. */
  activate(node: string, name: string, message: string, details: Record<string, unknown> = {}): void {
    if (this.active.some((a) => a.node === node && a.name === name)) return;
    this.active.push({ node, name, message, details, activate_at: this.clock.now(), deactivate_at: null });
  }

  /** Moves an active alarm to the history. */
  deactivate(node: string, name: string): boolean {
    const index = this.active.findIndex((a) => a.node === node && a.name === name);
    if (index < 0) return false;
    const [alarm] = this.active.splice(index, 1);
    alarm.deactivate_at = this.clock.now();
    this.history.unshift(alarm);
    return true;
  }

  private view(alarm: AlarmRecord): AlarmView {
    const end = alarm.deactivate_at ?? this.clock.now();
    const view: AlarmView = {
      node: alarm.node,
      name: alarm.name,
      message: alarm.message,
      details: alarm.details,
      duration: end - alarm.activate_at,
      activate_at: rfc3339(alarm.activate_at, 'ms'),
    };
    if (alarm.deactivate_at !== null) view.deactivate_at = rfc3339(alarm.deactivate_at, 'ms');
    return view;
  }

  /** One page of active (`activated`) or history alarms, newest first. */
  list(activated: boolean, page: PageQuery): PageEnvelope<AlarmView> {
    const rows = (activated ? this.active : this.history)
      .slice()
      .sort((a, b) => (b.deactivate_at ?? b.activate_at) - (a.deactivate_at ?? a.activate_at));
    return paginate(rows.map((a) => this.view(a)), page);
  }

  /** DELETE /alarms clears the history only; active alarms stay. */
  clearHistory(): void {
    this.history = [];
  }
}
