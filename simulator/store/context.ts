// What every part of the store shares: the persisted state, the clock, the durable save, and the
// notice that the whole state was replaced.
import type { Clock } from '../plugins/clock.ts';
import type { Profile } from './profile.ts';
import type { PersistedState } from './state.ts';

export interface StoreContext {
  readonly clock: Clock;
  readonly state: PersistedState;
  /** The broker release the simulator is (what it has, which fields, which defaults). */
  readonly profile: Profile;
  /**
   * Resolves once the current state is durable (immediately when running in memory); when the
   * write fails the state is put back as it was and this rejects with a 500 (persist.ts).
   */
  persist(): Promise<void>;
  /**
   * Registers what rebuilds a module's data derived from the state when the whole state was
   * replaced (backup import, undo of a failed save); runs synchronously first, never persists.
   */
  onStateReplaced(fn: () => Promise<void> | void): void;
  /** Runs every registered rebuild; resolves when their asynchronous parts are done. */
  stateReplaced(): Promise<void>;
}
