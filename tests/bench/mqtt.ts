// MQTT throughput: messages per second the simulator delivers with its hooks active, against a
// bare Aedes broker started here, same load (tests/bench/throughput.ts) on the same machine.
// Rounds alternate between the two and the best of each counts, which evens out a busy machine.
import { request } from '../helpers/simulator.ts';
import { startChild } from './children.ts';
import { budgeted, failed, info, type Row } from './table.ts';
import type { Level } from './wire.ts';

const S = 'mqtt';

/**
 * Gives the hooks that only act when configured something to do on the benchmark's topics:
 * a topic rewrite that matches (and maps to the same topic), an auto subscription, a topic
 * metric, slow subscription statistics, and a rule on the benchmark's topics that every message
 * is evaluated against (its WHERE refuses them, so it outputs nothing). Authentication and
 * authorization run as configured by default (the file authorizer with its cache). Returns the
 * names of what was switched on.
 */
export async function configureHooks(baseUrl: string, token: string): Promise<string[]> {
  const on: string[] = [];
  const put = async (name: string, method: string, path: string, body: unknown) => {
    const res = await request(baseUrl, method, `/api/v5${path}`, { token, body });
    if (res.status < 300) on.push(name);
  };
  await put('rewrite', 'PUT', '/mqtt/topic_rewrite', [{ action: 'publish', source_topic: 'tp/#', re: '^tp/(.+)$', dest_topic: 'tp/$1' }]);
  await put('auto-subscribe', 'PUT', '/mqtt/auto_subscribe', [{ topic: 'auto/${clientid}', qos: 0 }]);
  await put('topic-metrics', 'POST', '/mqtt/topic_metrics', { topic: 'tp/0' });
  await put('slow-subs', 'PUT', '/slow_subscriptions/settings', { enable: true });
  await put('rule', 'POST', '/rules', { id: 'bench_rule', sql: 'SELECT clientid, payload FROM "tp/#" WHERE qos = 2', actions: [{ function: 'console' }], enable: true });
  return on;
}

async function round(port: number, seconds: number, level: Level = 4): Promise<number> {
  const load = startChild('throughput.ts', ['--port', String(port), '--seconds', String(seconds), '--protocol', String(level)]);
  try {
    return (await load.next<{ rate: number }>()).rate;
  } finally {
    await load.stop();
  }
}

/** One round against a simulator that has served the benchmark's fleet, to show what it kept. */
export async function afterFleetRow(sim: { baseUrl: string; mqtt: number }, token: string, seconds: number, clients: number): Promise<Row> {
  try {
    await configureHooks(sim.baseUrl, token);
    const rate = await round(sim.mqtt, seconds);
    return info(S, `simulator after ${clients} clients came and left, same hooks, msg/s`, `${rate.toFixed(0)}/s`, rate);
  } catch (error) {
    return failed(S, 'throughput after the fleet', error);
  }
}

/**
 * The comparison proper, on a fresh simulator (`sim`) and a fresh bare Aedes: rounds of MQTT 3.1.1
 * and of MQTT 5.0 alternate between the two brokers; each protocol has its own ratio.
 */
export async function mqttRows(sim: { baseUrl: string; mqtt: number }, token: string, seconds: number, rounds: number): Promise<Row[]> {
  const bare = startChild('bare-aedes.ts');
  try {
    const hooks = await configureHooks(sim.baseUrl, token);
    const { mqtt: barePort } = await bare.next<{ mqtt: number }>();
    const rows: Row[] = [];
    for (const level of [4, 5] as const) {
      const name = level === 5 ? 'MQTT 5.0' : 'MQTT 3.1.1';
      const simRates: number[] = [];
      const bareRates: number[] = [];
      for (let i = 0; i < rounds; i++) {
        simRates.push(await round(sim.mqtt, seconds, level));
        bareRates.push(await round(barePort, seconds, level));
      }
      const simBest = Math.max(...simRates);
      const bareBest = Math.max(...bareRates);
      const ratio = simBest / bareBest;
      const list = (v: number[]) => v.map((r) => r.toFixed(0)).join(', ');
      rows.push(
        info(S, `${name}: simulator, all hooks (set up: ${hooks.join(', ')}), msg/s`, `${simBest.toFixed(0)}/s`, simBest),
        info(S, `${name}: bare Aedes, same load, msg/s`, `${bareBest.toFixed(0)}/s`, bareBest),
        info(S, `${name}: rounds, msg/s (best counts)`, `${list(simRates)} vs ${list(bareRates)}`),
        budgeted(S, `${name}: throughput ratio simulator / bare Aedes`, ratio, ratio.toFixed(2), 0.85, '≥ 0.85', true),
      );
    }
    return rows;
  } catch (error) {
    return [failed(S, 'throughput', error)];
  } finally {
    await bare.stop();
  }
}
