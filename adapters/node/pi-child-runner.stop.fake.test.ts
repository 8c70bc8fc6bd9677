import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { PiPreparedChild } from "./pi-prepared-child.ts";
import {
  alive,
  artifact,
  awaitFile,
  liveTagged,
  never,
  prepared,
  processTagOf,
  recorded,
  setup,
  type Setup,
} from "./pi-child-runner.test-support.ts";
import { groupHasLiveMembers } from "./process-group.ts";

// Stopping Fusion children: watchdogs, cancel, discard, shutdown, reaping after the answer, and the
// descendants that left the child's process group (found by the launcher's process tag).

describe("PiChildRunner (stand-in CLI): stopping children", () => {
  it("settles as soon as the verified answer is in, and still reaps a child that does not exit", async () => {
    const child = prepared(setup("linger"));
    const result = await child.send("p", never());
    expect(result.ok && result.value.exitCode).toBeNull(); // judged before the child exited
    for (let i = 0; i < 100 && (await groupHasLiveMembers(child.pid)); i += 1)
      await new Promise((r) => setTimeout(r, 50));
    expect(await groupHasLiveMembers(child.pid)).toBe(false);
  });

  it("output resets the idle watchdog", async () => {
    // 12 stderr lines 100 ms apart outlast the 800 ms watchdog only if each one resets it. The child is
    // pre-started and ready, so its start-up does not count.
    const s = setup("slow_chatty", { idleTimeoutMs: 800 });
    const ready = join(s.dir, "ready");
    const child = prepared({ ...s, spec: { ...s.spec, env: { ...s.spec.env, FAKE_PI_READY: ready } } });
    while (!existsSync(ready)) await new Promise((r) => setTimeout(r, 20));
    const result = await child.send("p", never());
    expect(result.ok ? "" : result.error.message).toBe("");
    expect(artifact(s, "stderr.txt")).toContain("tick 12\n");
  });

  it("a silent child hits the idle watchdog: child_timeout, group gone", async () => {
    const child = prepared(setup("hang", { idleTimeoutMs: 150 }));
    const result = await child.send("p", never());
    expect(result.ok ? undefined : result.error.code).toBe("child_timeout");
    expect(result.ok ? "" : result.error.message).toContain("no output for 150 ms");
    expect(await groupHasLiveMembers(child.pid)).toBe(false);
  });

  it("the absolute timeout also stops a child", async () => {
    const result = await prepared(setup("hang", { absoluteTimeoutMs: 150 })).send("p", never());
    expect(result.ok ? "" : result.error.message).toContain("ran longer than 150 ms");
  });

  it("cancel kills the whole group, escalating to SIGKILL when SIGTERM is ignored", async () => {
    const s = setup("ignore_term");
    const abort = new AbortController();
    const running = prepared(s).send("p", abort.signal);
    const rec = await recorded(s);
    abort.abort();
    const result = await running;
    expect(result.ok ? undefined : result.error.code).toBe("child_cancelled");
    expect(result.ok ? undefined : result.error.partial?.exitCode).toBeNull();
    expect(await groupHasLiveMembers(rec.pid)).toBe(false);
  });

  it("cancel also kills grandchildren in the group", async () => {
    const s = setup("grandchild");
    const abort = new AbortController();
    const running = prepared(s).send("p", abort.signal);
    const rec = await recorded(s);
    expect(rec.grandchildPid).toBeGreaterThan(0);
    abort.abort();
    expect((await running).ok).toBe(false);
    expect(alive(rec.grandchildPid ?? 0)).toBe(false);
    expect(await groupHasLiveMembers(rec.pid)).toBe(false);
  });

  it("an already aborted signal cancels without writing the prompt", async () => {
    const s = setup("ok");
    const abort = new AbortController();
    abort.abort();
    const result = await prepared(s).send("p", abort.signal);
    expect(result.ok ? undefined : result.error.code).toBe("child_cancelled");
    expect(existsSync(s.record)).toBe(false);
  });

  it("discard stops a child that never got a prompt; send afterwards is a bug", async () => {
    const s = setup("ok");
    const child = prepared(s);
    await child.discard();
    await child.discard();
    expect(existsSync(s.record)).toBe(false);
    expect(await groupHasLiveMembers(child.pid)).toBe(false);
    await expect(child.send("p", never())).rejects.toThrow(/discarded child/);
  });

  it("shutdown discards unsent children, cancels running ones, and waits until every group is gone", async () => {
    const s = setup("hang");
    const unsent = prepared(s);
    const running = prepared({ ...s, spec: { ...s.spec, prefix: "candidate-2.attempt-1" } });
    const result = running.send("p", never());
    await recorded(s);
    await s.runner.shutdown();
    const settled = await result;
    expect(settled.ok ? undefined : settled.error.code).toBe("child_cancelled");
    expect([await groupHasLiveMembers(unsent.pid), await groupHasLiveMembers(running.pid)]).toEqual([false, false]);
    await expect(unsent.send("p", never())).rejects.toThrow(/discarded child/);
  });
});

describe("PiChildRunner (stand-in CLI): descendants that left the process group", () => {
  /** A child that started `sleep 300` in a session of its own, with the tag and pid to look for. */
  async function withEscapee(
    behaviour: string,
    limits: Parameters<typeof setup>[1] = {},
  ): Promise<{ s: Setup; child: PiPreparedChild; tag: string; escapee: number }> {
    const base = setup(behaviour, limits);
    const file = join(base.dir, "escapee.pid");
    const s = { ...base, spec: { ...base.spec, env: { ...base.spec.env, FAKE_PI_ESCAPEE: file } } };
    const child = prepared(s);
    const escapee = await awaitFile(file, (text) => {
      const pid = Number(text);
      if (!Number.isInteger(pid) || pid <= 0) throw new Error("not yet");
      return pid;
    });
    const tag = processTagOf(child.pid);
    expect(liveTagged(tag)).toContain(escapee); // out of the group, but tagged
    return { s, child, tag, escapee };
  }

  it("cancel stops the escapee too: nothing carrying the child's tag is left", async () => {
    const { s, child, tag, escapee } = await withEscapee("hang");
    const abort = new AbortController();
    const running = child.send("p", abort.signal);
    await recorded(s);
    abort.abort();
    expect((await running).ok ? undefined : "stopped").toBe("stopped");
    await child.whenGone();
    expect(alive(escapee)).toBe(false);
    expect(liveTagged(tag)).toEqual([]);
  });

  it("the idle timeout stops the escapee too", async () => {
    const { child, tag, escapee } = await withEscapee("hang", { idleTimeoutMs: 200 });
    const result = await child.send("p", never());
    expect(result.ok ? undefined : result.error.code).toBe("child_timeout");
    await child.whenGone();
    expect(alive(escapee)).toBe(false);
    expect(liveTagged(tag)).toEqual([]);
  });

  it("shutdown stops the escapees of unsent and running children", async () => {
    const unsent = await withEscapee("hang");
    const running = await withEscapee("hang");
    const result = running.child.send("p", never());
    await recorded(running.s);
    await Promise.all([unsent.s.runner.shutdown(), running.s.runner.shutdown()]);
    expect((await result).ok).toBe(false);
    expect([alive(unsent.escapee), alive(running.escapee)]).toEqual([false, false]);
    expect([...liveTagged(unsent.tag), ...liveTagged(running.tag)]).toEqual([]);
  });

  it("a child that answered and exited leaves no escapee behind once it is gone", async () => {
    const { child, tag, escapee } = await withEscapee("ok");
    expect((await child.send("p", never())).ok).toBe(true);
    await child.whenGone();
    expect(alive(escapee)).toBe(false);
    expect(liveTagged(tag)).toEqual([]);
  });
});
