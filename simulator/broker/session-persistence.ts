// Aedes' in-memory persistence without its outgoing queue: the session layer (session-queue.ts)
// keeps each session's inflight window and message queue itself, so Aedes' own copy of every
// QoS 1/2 message for persistent subscribers (the one that lost and reordered messages across a
// reconnect) stores nothing here, and the incoming QoS 2 packet ids awaiting PUBREL are answered
// by the session too. Subscriptions, retained messages and wills stay in Aedes' memory store.
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import type { Client } from 'aedes';

/** What the session layer answers for a client in place of the stored state. */
export interface SessionStoreHooks {
  /** A QoS 2 PUBLISH is received: remember its packet id until PUBREL (may refuse). */
  storeIncoming(client: Client, packet: { messageId?: number }): Promise<void>;
  /** Resolves when the packet id awaits PUBREL, rejects otherwise. */
  getIncoming(client: Client, packet: { messageId?: number }): Promise<object>;
  /** PUBREL: forgets the packet id (rejects when it was unknown). */
  delIncoming(client: Client, packet: { messageId?: number }): Promise<void>;
  /** Aedes dropped the session's stored state (clean start, expiry, kick). */
  cleaned(clientid: string): void;
}

interface MemoryStore {
  cleanSubscriptions(client: { id: string }): Promise<void>;
  incomingStorePacket(client: Client, packet: object): Promise<void>;
  incomingGetPacket(client: Client, packet: object): Promise<object>;
  incomingDelPacket(client: Client, packet: object): Promise<void>;
}

// The in-memory store Aedes uses by default (aedes-persistence's async implementation), resolved
// from Aedes' own dependencies so both use the same copy.
const fromAedes = createRequire(createRequire(import.meta.url).resolve('aedes'));
const MemoryPersistence = fromAedes('aedes-persistence/asyncPersistence.js') as new () => MemoryStore;

export class SessionPersistence extends MemoryPersistence {
  /** Set by the session layer when it is installed. */
  hooks: SessionStoreHooks | null = null;

  async outgoingEnqueue(): Promise<void> {}

  async outgoingEnqueueCombi(): Promise<void> {}

  async outgoingUpdate(): Promise<void> {}

  async outgoingClearMessageId(): Promise<undefined> {
    return undefined;
  }

  outgoingStream(): Readable {
    return Readable.from([]);
  }

  // Only Aedes' offline enqueue asks which sessions subscribe to a topic: nobody, here.
  async subscriptionsByTopic(): Promise<never[]> {
    return [];
  }

  async cleanSubscriptions(client: { id: string }): Promise<void> {
    await super.cleanSubscriptions(client);
    this.hooks?.cleaned(client.id);
  }

  incomingStorePacket(client: Client, packet: { messageId?: number }): Promise<void> {
    return this.hooks ? this.hooks.storeIncoming(client, packet) : super.incomingStorePacket(client, packet);
  }

  incomingGetPacket(client: Client, packet: { messageId?: number }): Promise<object> {
    return this.hooks ? this.hooks.getIncoming(client, packet) : super.incomingGetPacket(client, packet);
  }

  incomingDelPacket(client: Client, packet: { messageId?: number }): Promise<void> {
    return this.hooks ? this.hooks.delIncoming(client, packet) : super.incomingDelPacket(client, packet);
  }
}

/** A fresh persistence for `Aedes.createBroker({ persistence })`. */
export function createSessionPersistence(): SessionPersistence {
  return new SessionPersistence();
}
