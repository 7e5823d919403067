/**
 * A coloured tag for a state EMQX reports (`connected`, `running`, `stopped`, `critical` …): the
 * tone comes from a table, the text from `status.<state>` messages (unknown states show as is).
 */
import { defineMessages, hasMessage, t } from '../lib/i18n.ts';

defineMessages({
  'status.connected': { zh: '已连接', en: 'Connected' },
  'status.disconnected': { zh: '已断开', en: 'Disconnected' },
  'status.idle': { zh: '空闲', en: 'Idle' },
  'status.running': { zh: '运行中', en: 'Running' },
  'status.stopped': { zh: '已停止', en: 'Stopped' },
  'status.enabled': { zh: '已启用', en: 'Enabled' },
  'status.disabled': { zh: '已禁用', en: 'Disabled' },
  'status.connecting': { zh: '连接中', en: 'Connecting' },
  'status.critical': { zh: '严重', en: 'Critical' },
  'status.warning': { zh: '警告', en: 'Warning' },
  'status.error': { zh: '错误', en: 'Error' },
});

const TONES: Record<string, 'ok' | 'bad' | 'warn' | 'off'> = {
  connected: 'ok', running: 'ok', enabled: 'ok', active: 'ok', success: 'ok',
  disconnected: 'off', stopped: 'bad', disabled: 'off', inactive: 'off', idle: 'warn',
  connecting: 'warn', warning: 'warn', critical: 'bad', error: 'bad', inconsistent: 'warn',
};

export function StatusTag({ status, test }: { status: string | undefined | null; test?: string }) {
  const value = String(status ?? '');
  const key = `status.${value}`;
  return <span class={`tag tag-${TONES[value] ?? 'off'}`} data-test={test}>{hasMessage(key) ? t(key) : value || '—'}</span>;
}
