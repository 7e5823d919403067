import type { Aedes } from 'aedes';
import type { Store } from '../store/index.ts';

export function installBanned(_aedes: Aedes, _store: Store): void {}
