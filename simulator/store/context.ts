// What every part of the store shares: the persisted state, the clock, and the durable save.
import type { Clock } from '../plugins/clock.ts';
import type { PersistedState } from './state.ts';

export interface StoreContext {
  readonly clock: Clock;
  readonly state: PersistedState;
  /** Resolves once the current state is durable (immediately when running in memory). */
  persist(): Promise<void>;
}
