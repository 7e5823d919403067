// Auto subscribe (emqx_auto_subscribe, emqx_auto_subscribe_placeholder): the persisted topic list
// that PUT /mqtt/auto_subscribe replaces as a whole, and the topics one client gets at connect
// with `${clientid}`, `${username}`, `${host}` and `${port}` filled in. A topic that needs a
// username the client did not give, or that comes out empty or invalid, is skipped.
import { apiError } from '../../plugins/errors.ts';
import type { StoreContext } from '../context.ts';
import { topicFilterProblem } from '../../lib/topic.ts';

/** One auto-subscribe topic exactly as the API takes and returns it. */
export interface AutoSubscribeTopic {
  topic: string;
  qos: number;
  rh: number;
  rap: number;
  nl: number;
}

/** EMQX accepts up to 20 topics (`length(Topics) =< 20`). */
export const MAX_AUTO_SUBSCRIBE = 20;

/** What the placeholders are filled from. */
export interface ConnectedClient {
  clientid: string;
  username: string | null;
  host: string;
  port: number;
}

const PLACEHOLDER = /\$\{(clientid|username|host|port)\}/g;

export class AutoSubscribe {
  constructor(private readonly ctx: StoreContext) {}

  list(): AutoSubscribeTopic[] {
    return this.ctx.state.auto_subscribe ?? [];
  }

  /** Replaces the list; more than 20 topics is refused with 409 as EMQX does. */
  async update(topics: AutoSubscribeTopic[]): Promise<AutoSubscribeTopic[]> {
    if (topics.length > MAX_AUTO_SUBSCRIBE) {
      // EMQX's format string has the two spaces.
      throw apiError(409, 'EXCEED_LIMIT', `Max auto subscribe topic count is  ${MAX_AUTO_SUBSCRIBE}`);
    }
    this.ctx.state.auto_subscribe = topics.map(({ topic, qos = 0, rh = 0, rap = 0, nl = 0 }) => ({ topic, qos, rh, rap, nl }));
    await this.ctx.persist();
    return this.list();
  }

  /** The subscriptions a client gets when it has connected, placeholders filled in. */
  topicsFor(client: ConnectedClient): AutoSubscribeTopic[] {
    const out: AutoSubscribeTopic[] = [];
    for (const entry of this.list()) {
      let missing = false;
      const topic = entry.topic.replace(PLACEHOLDER, (_, name: keyof ConnectedClient) => {
        const value = client[name];
        if (value === null || value === undefined) missing = true;
        return String(value ?? '');
      });
      // to_topic/4 gives up on an undefined username; an empty topic is ignored (empty_topic).
      if (missing || topic === '' || topicFilterProblem(topic)) continue;
      out.push({ ...entry, topic });
    }
    return out;
  }
}
