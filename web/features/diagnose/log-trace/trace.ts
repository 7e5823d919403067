/**
 * The trace entity of `GET /trace` (emqx-api-part1 §18) and the calls both trace screens make:
 * the detail path and the zip download, whose time-out gets its own message (spec part 2 §8).
 */
import { ApiError } from '../../../lib/api.ts';
import { download } from '../../../lib/download.ts';
import { t } from '../../../lib/i18n.ts';
import './messages.ts';

export type TraceType = 'clientid' | 'topic' | 'ip_address';

export interface Trace {
  name: string;
  type: TraceType;
  clientid?: string;
  topic?: string;
  ip_address?: string;
  payload_encode: 'text' | 'hex' | 'hidden';
  start_at: string;
  end_at: string;
  status: 'waiting' | 'running' | 'stopped';
  log_size: Record<string, number>;
}

export const TYPE_LABELS: Record<TraceType, string> = {
  clientid: 'logTrace.typeClientid',
  topic: 'logTrace.typeTopic',
  ip_address: 'logTrace.typeIpAddress',
};

/** The value the trace follows: the field named by its type. */
export const conditionOf = (trace: Trace) => trace[trace.type] ?? '';

export const tracePath = (name: string) => `/trace/${encodeURIComponent(name)}`;
export const detailRoute = (name: string) => `/log-trace/detail/${encodeURIComponent(name)}`;

/**
 * Saves the trace's zip under the name the server gives (`<name>.zip`). A time-out and an empty
 * trace become readable errors for `handleError` instead of a bare code.
 */
export async function downloadTrace(name: string): Promise<string> {
  try {
    return await download(`${tracePath(name)}/download`, undefined, `${name}.zip`);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'ECONNABORTED' && error.message === 'timeout') {
      throw new Error(`${t('logTrace.downloadTimeout')}. ${t('logTrace.downloadTimeoutHint')}`);
    }
    if (error instanceof ApiError && error.status === 404 && error.message === 'Trace is empty') throw new Error(t('logTrace.emptyLog'));
    throw error;
  }
}
