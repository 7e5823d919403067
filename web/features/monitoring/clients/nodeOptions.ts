/** The cluster's node names (`GET /nodes`) as choices of a node filter; shared with Subscriptions and Topics. */
import { api } from '../../../lib/api.ts';

export const nodeOptions = async (signal: AbortSignal) =>
  (await api.get<{ node: string }[]>('/nodes', { signal })).map((n) => ({ value: n.node, label: n.node }));
