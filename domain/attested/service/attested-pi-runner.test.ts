import { describe, expect, it } from "vitest";
import type { FileCommitter } from "../../../ports/file-committer.ts";
import type { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { cleanWorktree } from "../../../adapters/fake/fake-worktree-inspector.ts";
import type { WorktreeError, WorktreeState } from "../../../ports/worktree-inspector.ts";
import { err } from "../../shared/model/result.ts";
import { verifyAttestation } from "../model/pi-attestation.ts";
import {
  CREDENTIAL,
  CWD,
  DIR,
  EVENTS,
  expectFailedWithEvidenceOnly,
  reply,
  request,
  runToEnd,
  setup,
  sha,
  text,
} from "./attested-pi-runner.test-support.ts";

describe("AttestedPiRunner: a successful run", () => {
  it("spawns one direct pi child with the prompt on stdin and writes a verifiable sidecar last", async () => {
    const env = await setup();
    const done = await runToEnd(env, { extraPiArgs: ["--no-session"], thinking: "low" });
    expect(done.id).toMatch(/^b[0-9a-f]{32}$/);
    expect(done).toMatchObject({
      status: "completed",
      notifyOnCompletion: false,
      triggerOnCompletion: false,
      attestationPath: `.pi/tasks/s-1/${done.id}.attestation.json`,
    });
    expect(done.attestedPi).toMatchObject({
      sessionId: "sess-9",
      finalStopReason: "stop",
      authClass: "api-key-or-local",
      reportPath: "r.md",
    });
    expect(done.tokenUsage).toMatchObject({ input: 50, output: 10 });
    expect(env.launcher.launches).toHaveLength(1);
    const spec = env.launcher.launches[0];
    expect(spec?.command).toEqual({
      kind: "argv",
      file: "/usr/bin/node",
      args: [
        "/pi/cli.js",
        "--mode",
        "json",
        "--provider",
        "scripted",
        "--model",
        "inner",
        "--thinking",
        "low",
        "--no-session",
      ],
    });
    expect(spec?.env).toEqual({ CHILD: "env" });
    expect(text(spec?.stdin)).toBe("Write r.md [[usage 50 10]]");
    expect(env.notices).toEqual([]);

    const file = (suffix: string) => env.memory.contents(`${DIR}/${done.id}${suffix}`);
    expect(text(file(".pi-events.jsonl"))).toBe(EVENTS.join(""));
    expect(text(file(".stderr"))).toBe("a warning\n");
    expect(text(file(".output"))).toContain("wrote the report\n");
    const sidecar = verifyAttestation(text(file(".attestation.json")));
    if (!sidecar.ok) throw new Error(sidecar.error.message);
    const a = sidecar.value;
    expect(a.locator.task_id).toBe(done.id);
    expect(a.sources.metadata.sha256).toBe(sha(file(".json") ?? new Uint8Array()));
    expect(JSON.parse(text(file(".json")))).toMatchObject({
      status: "completed",
      attestationPath: done.attestationPath,
    });
    expect(a.artifacts.events).toEqual({
      path: `.pi/tasks/s-1/${done.id}.pi-events.jsonl`,
      bytes: Buffer.byteLength(EVENTS.join("")),
      sha256: sha(EVENTS.join("")),
    });
    expect(a.artifacts.prompt.sha256).toBe(sha("Write r.md [[usage 50 10]]"));
    expect(a.artifacts.report).toEqual({ path: "r.md", bytes: 9, sha256: sha("# report\n") });
    expect(a.artifacts.output.sha256).toBe(sha(file(".output") ?? new Uint8Array()));
    expect(a.invocation).toMatchObject({
      session_id: "sess-9",
      argv: ["pi", "--mode", "json", "--provider", "scripted", "--model", "inner", "--thinking", "low", "--no-session"],
      cwd_realpath: CWD,
      auth_class: "api-key-or-local",
      final_stop_reason: "stop",
      shell: false,
    });
    expect(a.authority).toMatchObject({
      repo_root_realpath: CWD,
      start: { head: "a".repeat(40) },
      finish: { head: "a".repeat(40) },
      allowed_change: "r.md",
    });
    expect(env.worktree.inspected).toEqual([CWD, CWD]);
  });
});

describe("AttestedPiRunner: refusals start nothing and write nothing", () => {
  it.each([
    [
      "a dirty worktree",
      { worktree: [{ ...cleanWorktree(CWD), porcelain: "?? notes.txt\0" }] },
      "attested_worktree_dirty",
    ],
    [
      "no Git worktree",
      { worktree: [{ code: "not_a_git_worktree", message: "/w is not inside a Git worktree" } as WorktreeError] },
      "attested_git_unavailable",
    ],
    ["no Pi CLI", { piLaunch: "no Pi package found" }, "pi_cli_not_found"],
  ] as const)("%s", async (_label, options, code) => {
    const env = await setup(options);
    const started = await env.runner.start(request(), CREDENTIAL);
    expect(started.ok ? "started" : started.error.code).toBe(code);
    expect(started.ok ? "" : started.error.message).toContain("Nothing was started or written");
    expect(env.launcher.launches).toHaveLength(0);
    expect(env.memory.listDir(DIR) ?? []).toEqual([]);
  });

  it("the package's own task artifacts do not make the worktree dirty", async () => {
    const env = await setup({ worktree: [{ ...cleanWorktree(CWD), porcelain: "?? .pi/tasks/s-0/b1.output\0" }] });
    expect((await runToEnd(env)).status).toBe("completed");
  });
});

describe("AttestedPiRunner: a failed run is an ordinary failed task with its evidence and no sidecar", () => {
  const moved: WorktreeState = { ...cleanWorktree(CWD), head: "d".repeat(40) };
  const events = (...lines: string[]) => ({ stdout: lines, exit: { code: 0 } });
  it.each([
    [
      "a failed model call although pi exited 0",
      {
        script: events(
          EVENTS[0] ?? "",
          EVENTS[1] ?? "",
          reply("error", { errorMessage: "400 scripted" }),
          EVENTS[3] ?? "",
        ),
      },
      /stopReason was error: 400 scripted \(attested_stop_reason_not_stop\)/,
    ],
    ["two sessions", { script: events(EVENTS[0] ?? "", ...EVENTS) }, /attested_session_not_unique/],
    ["a non-zero exit", { script: { stdout: EVENTS, exit: { code: 3 } } }, /^Exited with code 3/],
    ["HEAD moving", { worktree: [cleanWorktree(CWD), moved] }, /attested_git_head_moved/],
    [
      "another file changing",
      { worktree: [cleanWorktree(CWD), { ...cleanWorktree(CWD), porcelain: "?? r.md\0 M src/x.ts\0" }] },
      /beyond the report: src\/x\.ts \( M\) \(attested_worktree_dirty_at_finish\)/,
    ],
  ] as const)("%s", async (_label, options, error) => expectFailedWithEvidenceOnly(options, error));

  it("a sidecar that cannot be written fails the task and the metadata says so", async () => {
    const failingSidecar = (memory: InMemoryFileCommitter): FileCommitter => ({
      ensureDir: (p) => memory.ensureDir(p),
      createExclusive: (p) => memory.createExclusive(p),
      appendDurable: (p, b) => memory.appendDurable(p, b),
      readRange: (p, o, l) => memory.readRange(p, o, l),
      size: (p) => memory.size(p),
      replaceAtomic: async (p, b) =>
        p.endsWith(".attestation.json")
          ? err({ code: "io_failed", path: p, osCode: "ENOSPC", message: "disk full" })
          : memory.replaceAtomic(p, b),
    });
    const env = await setup({ wrapFiles: failingSidecar });
    const done = await runToEnd(env);
    expect(done).toMatchObject({ status: "failed" });
    expect(done.error).toMatch(/sidecar could not be written \(ENOSPC\)/);
    const meta = JSON.parse(text(env.memory.contents(`${DIR}/${done.id}.json`)));
    expect(meta).toMatchObject({ status: "failed" });
    expect(meta.attestationPath).toBeUndefined();
  });
});
