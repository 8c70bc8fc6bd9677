import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { ChildStageSpec } from "../../ports/fusion-child-runner.ts";
import { NodeFileCommitter } from "./node-file-committer.ts";
import { PiChildRunner, type ChildLimits } from "./pi-child-runner.ts";
import { PiPreparedChild } from "./pi-prepared-child.ts";
import { groupHasLiveMembers } from "./process-group.ts";
import { SystemClock } from "./system-clock.ts";

// The fast tier: the runner drives a stand-in CLI (fixtures/fake-pi-cli.mjs) that speaks the frame
// protocol and misbehaves on request. The real-Pi tier is pi-child-runner.pi.test.ts.
const here = dirname(fileURLToPath(import.meta.url));
const FAKE_CLI = join(here, "fixtures", "fake-pi-cli.mjs");
const ROUTE = { provider: "scripted", model: "scripted-a", thinking: "off" } as const;
const BLOCK2 = "second ✓ block";

interface Setup {
  readonly dir: string;
  readonly record: string;
  readonly spec: ChildStageSpec;
  readonly runner: PiChildRunner;
}

function setup(behaviour: string, limits: Partial<ChildLimits> = {}, over: Partial<ChildStageSpec> = {}): Setup {
  const dir = mkdtempSync(join(tmpdir(), "pi-child-fake-"));
  const record = join(dir, "record.json");
  const runner = new PiChildRunner({
    childExtensionPath: FAKE_CLI,
    anthropicSanitizerPath: join(dir, "no-such-sanitizer.ts"),
    files: new NodeFileCommitter(),
    clock: new SystemClock(),
    baseEnv: { ...process.env },
    cli: { cliPath: FAKE_CLI, version: undefined, source: "env" },
    limits: { killGraceMs: 300, ...limits },
  });
  const spec: ChildStageSpec = {
    runDir: dir,
    prefix: "candidate-1.attempt-1",
    route: ROUTE,
    tools: [],
    systemPrompt: "SYSTEM",
    cwd: dir,
    env: { FAKE_PI_BEHAVIOUR: behaviour, FAKE_PI_RECORD: record },
    ...over,
  };
  return { dir, record, spec, runner };
}

function prepared(s: Setup): PiPreparedChild {
  const child = s.runner.prepare(s.spec);
  if (!child.ok) throw new Error(child.error.message);
  if (!(child.value instanceof PiPreparedChild)) throw new Error("expected the node adapter's prepared child");
  return child.value;
}

/** Alive means present and not a zombie. */
function alive(pid: number): boolean {
  try {
    return !(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1] ?? "").startsWith("Z");
  } catch {
    return false;
  }
}

const artifact = (s: Setup, suffix: string): string =>
  readFileSync(join(s.dir, `candidate-1.attempt-1.${suffix}`), "utf8");
const hasArtifact = (s: Setup, suffix: string): boolean => existsSync(join(s.dir, `candidate-1.attempt-1.${suffix}`));

async function recorded(s: Setup): Promise<{ argv: string[]; stdin: string; pid: number; grandchildPid?: number }> {
  while (!existsSync(s.record)) await new Promise((r) => setTimeout(r, 20));
  for (;;) {
    try {
      return JSON.parse(readFileSync(s.record, "utf8")) as {
        argv: string[];
        stdin: string;
        pid: number;
        grandchildPid?: number;
      };
    } catch {
      await new Promise((r) => setTimeout(r, 20)); // written but not complete yet
    }
  }
}

const never = (): AbortSignal => new AbortController().signal;

describe("PiChildRunner (stand-in CLI)", () => {
  it("sends the prompt over stdin byte-exact and returns the verified answer, frames, usage and artifacts", async () => {
    const s = setup("ok");
    const prompt = "  héllo\nworld 😀 \t\n";
    const result = await prepared(s).send(prompt, never());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.text).toBe(`answer to: ${prompt}\n${BLOCK2}`);
    expect(result.value.frames).toHaveLength(1);
    expect(result.value.usage).toEqual({
      input: 10,
      output: 5,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 15,
      cost: { input: 10e-6, output: 10e-6, cacheRead: 0, cacheWrite: 0, total: 20e-6 },
    });
    const rec = await recorded(s);
    expect(Buffer.from(rec.stdin, "base64").equals(Buffer.from(prompt, "utf8"))).toBe(true);
    expect(rec.argv).toEqual([
      "--mode",
      "text",
      "--no-session",
      "--no-tools",
      "--no-extensions",
      "--no-skills",
      "--no-prompt-templates",
      "--no-themes",
      "--no-context-files",
      "--offline",
      "--extension",
      FAKE_CLI,
      "--provider",
      "scripted",
      "--model",
      "scripted-a",
      "--thinking",
      "off",
      "--system-prompt",
      "SYSTEM",
    ]);
    expect(artifact(s, "stderr.txt")).toBe("some warning\n");
    const events = artifact(s, "events.jsonl").split("\n");
    expect(events).toHaveLength(2);
    expect(JSON.parse(events[0] ?? "")).toMatchObject({
      schema_version: "pi-background-tasks.fusion-child-result.v3",
      stop_reason: "stop",
    });
    expect(hasArtifact(s, "response.partial.txt")).toBe(false);
  });

  it("judges by the final frame, not the exit code", async () => {
    const result = await prepared(setup("exit_1_after_stop")).send("p", never());
    expect(result.ok).toBe(true);
  });

  it("settles as soon as the verified answer is in, and still reaps a child that does not exit", async () => {
    const child = prepared(setup("linger"));
    const result = await child.send("p", never());
    expect(result.ok && result.value.exitCode).toBeNull(); // judged before the child exited
    for (let i = 0; i < 100 && (await groupHasLiveMembers(child.pid)); i += 1)
      await new Promise((r) => setTimeout(r, 50));
    expect(await groupHasLiveMembers(child.pid)).toBe(false);
  });

  it("sums usage over every frame (tool turn + final answer)", async () => {
    const s = setup("two_frames");
    const result = await prepared(s).send("p", never());
    expect(result.ok && result.value.frames.map((f) => f.stopReason)).toEqual(["toolUse", "stop"]);
    expect(result.ok && [result.value.usage.input, result.value.usage.output, result.value.usage.totalTokens]).toEqual([
      400, 60, 460,
    ]);
    expect(artifact(s, "events.jsonl").trim().split("\n")).toHaveLength(2);
  });

  it("strips a frame that follows output lacking its newline, keeping that output", async () => {
    const s = setup("frame_midline");
    expect((await prepared(s).send("p", never())).ok).toBe(true);
    expect(artifact(s, "stderr.txt")).toBe("partial line without newlineafter\n");
  });

  it("keeps stderr up to its limit and writes a receipt for the rest", async () => {
    const s = setup("stderr_flood", { stderrKeepBytes: 1_000 });
    expect((await prepared(s).send("p", never())).ok).toBe(true);
    const stderr = artifact(s, "stderr.txt");
    expect(stderr.startsWith("x".repeat(1_000) + "\n[pi-background-tasks: stderr truncated")).toBe(true);
    expect(stderr).toContain("9000 more were discarded");
  });

  const invalid: Array<[string, string, RegExp]> = [
    ["no_frames", "child_event_invalid", /reported no metadata frame/],
    ["bad_hash", "child_event_invalid", /sha256 differs/],
    [
      "wrong_model",
      "child_event_invalid",
      /answered with scripted\/other-model, not the pinned route scripted\/scripted-a/,
    ],
  ];
  it.each(invalid)("%s → %s, stdout kept only as a partial artifact", async (behaviour, code, message) => {
    const s = setup(behaviour);
    const result = await prepared(s).send("p", never());
    expect(result.ok ? undefined : result.error.code).toBe(code);
    expect(result.ok ? "" : result.error.message).toMatch(message);
    expect(artifact(s, "response.partial.txt")).toMatch(/^answer to: /);
  });

  it("a final error frame is child_exit_failed with the provider's message and its usage counted", async () => {
    const s = setup("error_frame");
    const result = await prepared(s).send("p", never());
    expect(result.ok ? undefined : result.error.code).toBe("child_exit_failed");
    expect(result.ok ? "" : result.error.message).toContain('stopReason "error": 400 scripted error 400');
    expect(result.ok ? undefined : result.error.partial?.usage.input).toBe(7);
    expect(hasArtifact(s, "response.partial.txt")).toBe(false);
    expect(artifact(s, "stderr.txt")).toBe("400 scripted error 400\n");
  });

  it("stdout beyond the cap stops the child: child_output_cap with exactly the capped bytes as partial", async () => {
    const s = setup("huge_stdout", { stdoutCapBytes: 1_000 });
    const result = await prepared(s).send("p", never());
    expect(result.ok ? undefined : result.error.code).toBe("child_output_cap");
    expect(artifact(s, "response.partial.txt")).toBe("y".repeat(1_000));
  });

  it("a child that died before its prompt is child_spawn_failed with its stderr", async () => {
    const child = prepared(setup("exit_early"));
    await child.whenExited();
    const result = await child.send("p", never());
    expect(result.ok ? undefined : result.error.code).toBe("child_spawn_failed");
    expect(result.ok ? "" : result.error.message).toContain("Unknown option: --exclude-tools");
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

  it("a prompt with a lone surrogate is refused as child_stdin_failed", async () => {
    const result = await prepared(setup("ok")).send("bad \uD800 prompt", never());
    expect(result.ok ? undefined : result.error.code).toBe("child_stdin_failed");
  });

  it("refuses to start without a needed extension, a working directory, or with a denied tool", () => {
    const anthropic = setup("ok", {}, { route: { provider: "anthropic", model: "claude-x", thinking: "off" } });
    const missing = anthropic.runner.prepare(anthropic.spec);
    expect(missing.ok ? "" : missing.error.message).toMatch(/Anthropic sanitizer extension .* is missing/);
    const s = setup("ok");
    const noCwd = s.runner.prepare({ ...s.spec, cwd: join(s.dir, "nope") });
    expect(noCwd.ok ? undefined : noCwd.error.code).toBe("child_spawn_failed");
    const bash = s.runner.prepare({ ...s.spec, tools: ["read", "bash"] });
    expect(bash.ok ? "" : bash.error.message).toContain("grants bash");
    const absent = s.runner.prepare({ ...s.spec, extensions: [join(s.dir, "no-such-audit-extension.ts")] });
    expect(absent.ok ? "" : absent.error.message).toMatch(/stage extension .*no-such-audit-extension\.ts is missing/);
  });

  it("passes a stage's extensions after its own, in order, with the stage env", async () => {
    const s = setup("ok");
    const first = join(s.dir, "web-fetch.ts");
    const last = join(s.dir, "audit.ts");
    writeFileSync(first, "");
    writeFileSync(last, "");
    const result = await prepared({ ...s, spec: { ...s.spec, tools: ["read"], extensions: [first, last] } }).send(
      "p",
      never(),
    );
    expect(result.ok).toBe(true);
    const rec = await recorded(s);
    const at = rec.argv.indexOf("--extension");
    expect(rec.argv.slice(at, at + 7)).toEqual([
      "--extension",
      FAKE_CLI,
      "--extension",
      first,
      "--extension",
      last,
      "--provider",
    ]);
  });
});
