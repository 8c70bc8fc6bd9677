import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { artifact, FAKE_CLI, hasArtifact, never, prepared, recorded, setup } from "./pi-child-runner.test-support.ts";

// How a child's output is judged: the answer, its frames and usage, the artifacts, and what is refused
// before anything starts. Stopping children is pi-child-runner.stop.fake.test.ts.
const BLOCK2 = "second ✓ block";

describe("PiChildRunner (stand-in CLI): answers and refusals", () => {
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
