import { describe, expect, it } from "vitest";
import { SessionActivity } from "./session-activity.ts";

describe("SessionActivity", () => {
  it("a session is idle only with nothing open, from when its last request or stream ended", () => {
    let now = 0;
    const activity = new SessionActivity(() => now);
    const endRequest = activity.begin("a");
    const endStream = activity.begin("a");
    activity.begin("b")();
    now = 10_000;
    endRequest();
    endRequest(); // ending twice counts once
    expect(activity.idleFor(5_000)).toEqual(["b"]);
    now = 20_000;
    expect(activity.idleFor(5_000)).toEqual(["b"]); // a's stream is still open
    endStream();
    now = 25_000;
    expect(activity.idleFor(5_000).sort()).toEqual(["a", "b"]);
    activity.forget("b");
    expect(activity.idleFor(5_000)).toEqual(["a"]);
  });
});
