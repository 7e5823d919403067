import type { Aedes } from 'aedes';
import type { Store } from '../store/index.ts';

export function installAuthz(_aedes: Aedes, _store: Store): void {}
