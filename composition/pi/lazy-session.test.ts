import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { TaskRuntime } from "../../domain/tasks/service/task-runtime.ts";
import { LazySession } from "./lazy-session.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function ctxIn(sessionId = "s-1"): ExtensionContext {
  const cwd = mkdtempSync(join(tmpdir(), "lazy-session-"));
  dirs.push(cwd);
  return {
    cwd,
    hasUI: false,
    sessionManager: { getSessionId: () => sessionId },
    modelRegistry: { getAll: () => [] },
  } as unknown as ExtensionContext;
}

function session() {
  const lazy = new LazySession({ sendMessage: () => undefined } as unknown as ExtensionAPI);
  const built: TaskRuntime[] = [];
  lazy.onBuilt((runtime) => built.push(runtime));
  return { lazy, built };
}

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: { code?: string }) => error.code,
  );

describe("LazySession", () => {
  it("outside a session nothing is served: ready() rejects and current() throws session_not_started", async () => {
    const { lazy, built } = session();
    expect(await code(lazy.ready())).toBe("session_not_started");
    expect(() => lazy.current()).toThrow(/session has not started/);
    expect(built).toEqual([]);
  });

  it("session_start builds nothing; the first ready() builds once, tells the listeners first, and shares the runtime", async () => {
    const { lazy, built } = session();
    await lazy.open(ctxIn());
    expect(lazy.built()).toBeUndefined();
    expect(built).toEqual([]);
    let handedOut = false;
    const seenBeforeHandOut: boolean[] = [];
    lazy.onBuilt(() => seenBeforeHandOut.push(!handedOut));
    const first = lazy.ready().then((runtime) => ((handedOut = true), runtime));
    const [a, b] = await Promise.all([first, lazy.ready()]);
    expect(a).toBe(b);
    expect(built).toEqual([a]);
    expect(seenBeforeHandOut).toEqual([true]);
    expect(lazy.current()).toBe(a);
    expect(lazy.services()?.runtime).toBe(a);
    expect(lazy.services()?.application.attested).toBeDefined();
    await lazy.close();
    expect(a.isShuttingDown).toBe(true);
  });

  it("the runtime works: a task started after ready() runs in the session's task directory", async () => {
    const { lazy } = session();
    const ctx = ctxIn("abc");
    await lazy.open(ctx);
    const runtime = await lazy.ready();
    const started = await runtime.start({
      name: "echo",
      command: "echo hi",
      isAgent: false,
      notifyOnCompletion: false,
      triggerOnCompletion: false,
      onOutputCap: "keep_head_and_tail",
    });
    if (!started.ok) throw new Error(started.error.message);
    expect(started.value.outputPath).toContain(`.pi/tasks/abc-${process.pid}/`);
    await lazy.close();
  });

  it("after session_shutdown ready() rejects, and a new session builds a new runtime", async () => {
    const { lazy, built } = session();
    await lazy.open(ctxIn());
    const first = await lazy.ready();
    await lazy.close();
    expect(await code(lazy.ready())).toBe("session_not_started");
    expect(lazy.built()).toBeUndefined();
    await lazy.open(ctxIn("s-2"));
    const second = await lazy.ready();
    expect(second).not.toBe(first);
    expect(built).toEqual([first, second]);
    await lazy.close();
  });

  it("a session that ends while its runtime is being built releases it and never hands it out", async () => {
    const { lazy, built } = session();
    await lazy.open(ctxIn());
    const pending = lazy.ready();
    await lazy.close();
    expect(await code(pending)).toBe("session_not_started");
    expect(built).toEqual([]);
    expect(lazy.built()).toBeUndefined();
  });

  it("invalid settings still fail session_start itself, with pi_bg_config_invalid", async () => {
    const { lazy } = session();
    const saved = process.env.PI_BG_MAX_OUTPUT_BYTES;
    process.env.PI_BG_MAX_OUTPUT_BYTES = "lots";
    try {
      await expect(lazy.open(ctxIn())).rejects.toThrow(/pi_bg_config_invalid/);
    } finally {
      if (saved === undefined) delete process.env.PI_BG_MAX_OUTPUT_BYTES;
      else process.env.PI_BG_MAX_OUTPUT_BYTES = saved;
    }
    expect(await code(lazy.ready())).toBe("session_not_started");
  });
});
