import { describe, expect, it } from "vitest";
import { BoundedEventStore } from "./bounded-event-store.ts";

const message = (n: number) => ({ jsonrpc: "2.0" as const, method: "notifications/message", params: { n } });

async function replay(store: BoundedEventStore, after: string) {
  const sent: [string, unknown][] = [];
  const stream = await store.replayEventsAfter(after, { send: async (id, m) => void sent.push([id, m]) });
  return { stream, sent };
}

describe("BoundedEventStore", () => {
  it("replays only the events of the same stream after the one named, in order", async () => {
    const store = new BoundedEventStore(100);
    const first = await store.storeEvent("s1", message(1));
    await store.storeEvent("s2", message(2));
    const third = await store.storeEvent("s1", message(3));
    const fourth = await store.storeEvent("s1", message(4));
    const { stream, sent } = await replay(store, first);
    expect(stream).toBe("s1");
    expect(sent).toEqual([
      [third, message(3)],
      [fourth, message(4)],
    ]);
    expect(await store.getStreamIdForEventId(third)).toBe("s1");
  });

  it("forgets the oldest events beyond its capacity and replays nothing from a forgotten one", async () => {
    const store = new BoundedEventStore(2);
    const first = await store.storeEvent("s", message(1));
    const second = await store.storeEvent("s", message(2));
    await store.storeEvent("s", message(3));
    expect(await replay(store, first)).toEqual({ stream: "", sent: [] });
    expect((await replay(store, second)).sent).toHaveLength(1);
  });
});
