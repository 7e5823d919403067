/**
 * Transient notices (success after a write, errors) as a valtio store with verbs.
 * It does not render anything: `ui/Toasts.tsx` does.
 */
import { proxy } from 'valtio';

export type ToastKind = 'success' | 'error' | 'info';
export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
  /** The raw text behind an error, shown on request. */
  detail?: string;
}

export const toasts = proxy({ items: [] as Toast[] });
let nextId = 1;

/** Shows `text` for a few seconds (errors stay longer); repeated identical texts are not stacked. */
export function toast(text: string, kind: ToastKind = 'success', detail?: string): number {
  const existing = toasts.items.find((item) => item.text === text && item.kind === kind);
  if (existing) return existing.id;
  const id = nextId++;
  toasts.items.push(detail ? { id, kind, text, detail } : { id, kind, text });
  setTimeout(() => dismiss(id), kind === 'error' ? (detail ? 10000 : 6000) : 3000);
  return id;
}

/** Removes one notice. */
export function dismiss(id: number) {
  const index = toasts.items.findIndex((item) => item.id === id);
  if (index >= 0) toasts.items.splice(index, 1);
}
