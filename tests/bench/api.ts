// API latency with a live fleet: p50/p95/p99 and requests/s of the console's heaviest polling
// endpoints, sent by a separate requester process (tests/bench/requester.ts).
import { budgeted, failed, info, ms, type Row } from './table.ts';
import { startChild } from './children.ts';

const S = 'api';
export const API_PATHS = ['/api/v5/clients?limit=100', '/api/v5/subscriptions?limit=100', '/api/v5/stats', '/api/v5/monitor_current'];

interface Result { path: string; p50: number; p95: number; p99: number; rps: number; errors: number }

export async function apiRows(baseUrl: string, token: string, clients: number, connected: number): Promise<Row[]> {
  const requester = startChild('requester.ts', [
    '--base', baseUrl, '--token', token, '--paths', API_PATHS.join(','), '--pages', String(Math.min(50, Math.ceil(clients / 100))),
    '--count', '200', '--concurrency', '8', '--seconds', '3',
  ]);
  const rows: Row[] = [];
  try {
    for (const path of API_PATHS) {
      const r = await requester.next<Result>();
      const figure = `GET ${path.replace('/api/v5', '')} with ${connected} clients p50/p95/p99`;
      const value = `${ms(r.p50)} / ${ms(r.p95)} / ${ms(r.p99)}`;
      // DESIGN.md §6 budgets the client list; the other endpoints are reported against the same figure.
      rows.push(path.startsWith('/api/v5/clients')
        ? budgeted(S, figure, r.p95, value, 20, 'p95 ≤ 20 ms')
        : { ...info(S, figure, value, r.p95), budget: '(p95 ≤ 20 ms)' });
      rows.push(info(S, `  requests/s, 8 parallel${r.errors ? `, ${r.errors} errors` : ''}`, `${r.rps.toFixed(0)}/s`, r.rps));
    }
  } catch (error) {
    rows.push(failed(S, 'API latency', error));
  } finally {
    await requester.stop();
  }
  return rows;
}
