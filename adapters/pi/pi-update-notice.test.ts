import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import type { UpdateStatus } from "../../domain/updates/model/update-status.ts";
import { PiUpdateNotice, UPDATE_STATUS_KEY, type UpdateLookup } from "./pi-update-notice.ts";

function fakeCtx(hasUI = true) {
  const statuses: Array<[string, string | undefined]> = [];
  const notices: string[] = [];
  const ctx = {
    hasUI,
    mode: "tui",
    ui: {
      setStatus: (key: string, text: string | undefined) => statuses.push([key, text]),
      notify: (text: string) => notices.push(text),
      theme: { fg: (_color: string, text: string) => `<${text}>` },
    },
  } as unknown as ExtensionContext;
  return { ctx, statuses, notices };
}

/** A lookup the test settles by hand, that records whether it saw the session end. */
function heldLookup() {
  let settle: (status: UpdateStatus) => void = () => undefined;
  let signal: AbortSignal | undefined;
  const lookup: UpdateLookup = {
    packageName: "pi-background-tasks",
    registryUrl: "http://127.0.0.1:1",
    run: (s) => {
      signal = s;
      return new Promise((resolve) => {
        settle = resolve;
      });
    },
  };
  return { lookup, settle: (status: UpdateStatus) => settle(status), aborted: () => signal?.aborted };
}

const say = (ctx: ExtensionContext, text: string) => ctx.ui.notify(text, "info");
const newer: UpdateStatus = { kind: "newer", current: "0.10.0", latest: "0.11.0" };
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("PiUpdateNotice", () => {
  it("shows the segment under its own key when the lookup finds a newer release, and clears it at session end", async () => {
    const { ctx, statuses } = fakeCtx();
    const held = heldLookup();
    const notice = new PiUpdateNotice(held.lookup, ctx);
    expect(statuses).toEqual([]);
    held.settle(newer);
    await tick();
    expect(statuses).toEqual([[UPDATE_STATUS_KEY, "<⬆ v0.11.0 /bg-update>"]]);
    notice.stop();
    expect(statuses.at(-1)).toEqual([UPDATE_STATUS_KEY, undefined]);
    expect(held.aborted()).toBe(true);
  });

  it("drops a result that arrives after the session ended", async () => {
    const { ctx, statuses } = fakeCtx();
    const held = heldLookup();
    new PiUpdateNotice(held.lookup, ctx).stop();
    held.settle(newer);
    await tick();
    expect(statuses).toEqual([]);
  });

  it("/bg-update waits for the lookup in flight; a lookup that throws is reported, not thrown", async () => {
    const { ctx, notices } = fakeCtx();
    const held = heldLookup();
    const notice = new PiUpdateNotice(held.lookup, ctx);
    const report = notice.report(ctx, say);
    held.settle({ kind: "unpublished", current: "0.10.0" });
    await report;
    expect(notices).toEqual([
      "pi-background-tasks 0.10.0: no newer release (http://127.0.0.1:1 does not list the package).",
    ]);
    const broken: UpdateLookup = { ...held.lookup, run: () => Promise.reject(new Error("boom")) };
    await new PiUpdateNotice(broken, ctx).report(ctx, say);
    expect(notices.at(-1)).toContain("update_check_failed: boom");
  });
});
