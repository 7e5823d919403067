/**
 * The state of a test-client connection as a coloured tag (the kit's StatusTag knows no
 * 'reconnecting'); connecting and connected read as the kit's texts.
 */
import { t } from '../../../lib/i18n.ts';
import type { Status } from './store.ts';

const TONES: Record<Status, string> = {
  connected: 'ok', connecting: 'warn', reconnecting: 'warn', disconnecting: 'warn', disconnected: 'off',
};

export function StateTag({ status }: { status: Status }) {
  return <span class={`tag tag-${TONES[status]}`} data-test="ws-state" data-state={status}>{t(`${status.startsWith('conn') ? 'status' : 'websocket.state'}.${status}`)}</span>;
}
