/**
 * One confirmation dialog for the whole console: `await confirm(text)` resolves true or false.
 * `ui/Confirm.tsx` renders it; nothing destructive runs without it (DESIGN.md §7).
 */
import { proxy, ref } from 'valtio';

export interface ConfirmRequest {
  text: string;
  danger: boolean;
  okText?: string;
  resolve: (ok: boolean) => void;
}

export const confirmState = proxy({ current: null as ConfirmRequest | null });

/** Asks the user; a second request while one is open answers the first with false. */
export function confirm(text: string, options: { danger?: boolean; okText?: string } = {}): Promise<boolean> {
  confirmState.current?.resolve(false);
  return new Promise((resolve) => {
    confirmState.current = ref({ text, danger: options.danger ?? false, okText: options.okText, resolve });
  });
}

/** Closes the open dialog with the given answer. */
export function answer(ok: boolean) {
  const request = confirmState.current;
  confirmState.current = null;
  request?.resolve(ok);
}
