import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * The SSE events of one HTTP session, kept so a client that reconnects with `Last-Event-ID` gets what it
 * missed (the spec's resumability). Bounded: the oldest events go first, and a client asking to resume from
 * one that is gone gets nothing replayed rather than a wrong sequence.
 */
export class BoundedEventStore implements EventStore {
  readonly #events = new Map<string, { readonly streamId: string; readonly message: JSONRPCMessage }>();
  #next = 0;

  constructor(private readonly capacity: number) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const eventId = `${streamId}~${this.#next++}`;
    this.#events.set(eventId, { streamId, message });
    if (this.#events.size > this.capacity) {
      const oldest = this.#events.keys().next().value;
      if (oldest !== undefined) this.#events.delete(oldest);
    }
    return eventId;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.#events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.#events.get(lastEventId);
    if (last === undefined) return "";
    let after = false;
    // Map order is insertion order: the events in the order they were sent.
    for (const [eventId, event] of this.#events) {
      if (eventId === lastEventId) after = true;
      else if (after && event.streamId === last.streamId) await send(eventId, event.message);
    }
    return last.streamId;
  }
}
