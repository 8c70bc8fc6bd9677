import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verifyAttestation } from "../../../domain/attested/model/pi-attestation.ts";
import type { TaskSnapshot } from "../../../domain/tasks/model/task-snapshot.ts";
import { INNER, OUTER, useAgentTasksHost } from "./agent-tasks-rpc.test-support.ts";
import { LEAN_PI_ARGS } from "./scripted-parent.test-support.ts";

// bg_run_pi_attested end to end: the outer pi starts an attested inner pi and the sidecar verifies against its
// files; refusals start nothing; an OAuth credential in the agent dir is classified.

const host = useAgentTasksHost();
const { callTool, git, innerReplies, taskFile, terminal } = host;
const sha = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

function innerRequests(): number {
  return host.server.requests.filter((r) => r.model === INNER.id).length;
}

function taskFiles(): string[] {
  const base = join(host.repo, ".pi", "tasks");
  return existsSync(base) ? readdirSync(base, { recursive: true }).map(String) : [];
}

describe("bg_run_pi_attested (through pi --mode rpc)", () => {
  const ATTESTED = {
    name: "attested review",
    provider: "scripted",
    model: INNER.id,
    prompt: "Write the review report.",
    reportPath: "reports/review.md",
    extraPiArgs: LEAN_PI_ARGS,
  };

  it("a run in a clean repository writes a sidecar whose hashes verify against the files", async () => {
    const head = git("rev-parse", "HEAD").trim();
    innerReplies.push(
      {
        toolCalls: [{ name: "write", arguments: { path: "reports/review.md", content: "# Review\nall good\n" } }],
        usage: { input: 400, output: 30 },
      },
      { text: "report written", usage: { input: 500, output: 10 } },
    );
    const started = await callTool("bg_run_pi_attested", ATTESTED);
    expect(started.isError, started.text).toBe(false);
    expect(started.text).toContain("Credential class: api-key-or-local");
    const task = started.task as TaskSnapshot;
    expect(task.id).toMatch(/^b[0-9a-f]{32}$/);
    expect(task.notifyOnCompletion).toBe(false);
    const done = await terminal(task);
    expect(done.status, done.error).toBe("completed");
    const sidecarText = readFileSync(taskFile(done, ".attestation.json"), "utf8");
    const sidecar = verifyAttestation(sidecarText);
    if (!sidecar.ok) throw new Error(sidecar.error.message);
    const a = sidecar.value;
    const events = readFileSync(taskFile(done, ".pi-events.jsonl"));
    const header = JSON.parse(events.toString("utf8").split("\n")[0] ?? "{}") as { type: string; id: string };
    expect(header.type).toBe("session");
    expect(a.invocation).toMatchObject({
      session_id: header.id,
      provider: "scripted",
      model: INNER.id,
      auth_class: "api-key-or-local",
      cwd_realpath: realpathSync(host.repo),
      final_stop_reason: "stop",
      argv: ["pi", "--mode", "json", "--provider", "scripted", "--model", INNER.id, ...LEAN_PI_ARGS],
    });
    expect(a.artifacts.events.sha256).toBe(sha(events));
    expect(a.artifacts.stderr.sha256).toBe(sha(readFileSync(taskFile(done, ".stderr"))));
    expect(a.artifacts.output.sha256).toBe(sha(readFileSync(taskFile(done, ".output"))));
    expect(a.artifacts.report).toEqual({ path: "reports/review.md", bytes: 18, sha256: sha("# Review\nall good\n") });
    expect(a.artifacts.prompt.sha256).toBe(sha(ATTESTED.prompt));
    expect(a.sources.metadata.sha256).toBe(sha(readFileSync(taskFile(done, ".json"))));
    expect(a.authority).toMatchObject({
      repo_root_realpath: realpathSync(host.repo),
      start: { head },
      finish: { head },
    });
    expect(readFileSync(join(host.repo, done.outputPath), "utf8")).toContain("report written");
    rmSync(join(host.repo, "reports"), { recursive: true });
  });

  it("a tracked report the run left unchanged, or a symlink as the report, fails with no sidecar", async () => {
    mkdirSync(join(host.repo, "reports"));
    writeFileSync(join(host.repo, "reports/review.md"), "# Old review\n");
    git("add", "reports/review.md");
    git("commit", "-qm", "a tracked report");
    innerReplies.push({ text: "nothing to do", usage: { input: 400, output: 10 } });
    const unchanged = await callTool("bg_run_pi_attested", ATTESTED);
    expect(unchanged.isError, unchanged.text).toBe(false);
    const stale = await terminal(unchanged.task as TaskSnapshot);
    expect(stale.status).toBe("failed");
    expect(stale.error).toMatch(
      /reports\/review\.md was not created or changed by this run \(attested_report_not_written\)/,
    );
    expect(existsSync(taskFile(stale, ".attestation.json"))).toBe(false);
    git("rm", "-rq", "reports");
    git("commit", "-qm", "drop the tracked report");

    mkdirSync(join(host.repo, "reports"));
    innerReplies.push(
      { toolCalls: [{ name: "bash", arguments: { command: "ln -s ../notes.txt reports/review.md" } }] },
      { text: "linked the notes", usage: { input: 500, output: 10 } },
    );
    const linked = await callTool("bg_run_pi_attested", ATTESTED);
    expect(linked.isError, linked.text).toBe(false);
    const link = await terminal(linked.task as TaskSnapshot);
    expect(link.status).toBe("failed");
    expect(link.error).toMatch(/reports\/review\.md is a symlink .*\(attested_report_not_regular_file\)/);
    expect(existsSync(taskFile(link, ".attestation.json"))).toBe(false);
    rmSync(join(host.repo, "reports"), { recursive: true });
  });

  it("refusals start nothing and leave no files: a dirty worktree, an API key flag, a report outside the tree", async () => {
    const before = { inner: innerRequests(), files: taskFiles().length };
    writeFileSync(join(host.repo, "scratch.txt"), "uncommitted\n");
    const dirty = await callTool("bg_run_pi_attested", ATTESTED);
    rmSync(join(host.repo, "scratch.txt"));
    const apiKey = await callTool("bg_run_pi_attested", { ...ATTESTED, extraPiArgs: ["--api-key", "sk-test"] });
    const outside = await callTool("bg_run_pi_attested", { ...ATTESTED, reportPath: "../escape.md" });
    expect([dirty, apiKey, outside].map((r) => r.isError)).toEqual([true, true, true]);
    expect(dirty.text).toContain("attested_worktree_dirty");
    expect(dirty.text).toContain("scratch.txt");
    expect(apiKey.text).toContain("attested_pi_argument_refused");
    expect(outside.text).toContain("attested_report_path_refused");
    expect(innerRequests()).toBe(before.inner);
    expect(taskFiles().length).toBe(before.files);
  });

  it("an anthropic OAuth credential in the agent dir is classified through the tool; the failed run leaves evidence and no sidecar", async () => {
    const mark = host.server.requests.length;
    const started = await callTool("bg_run_pi_attested", {
      ...ATTESTED,
      provider: "anthropic",
      model: "claude-sonnet-4-5",
    });
    expect(started.isError, started.text).toBe(false);
    expect(started.text).toContain("Credential class: pi-anthropic-oauth (channel subscription-anthropic)");
    expect(started.task?.attestedPi?.authClass).toBe("pi-anthropic-oauth");
    const done = await terminal(started.task as TaskSnapshot);
    expect(done.status).toBe("failed");
    expect(done.attestedPi?.authClass).toBe("pi-anthropic-oauth");
    // The anthropic provider was really used (through the loopback override, which has no route for it).
    expect(done.error).toMatch(
      /stopReason was error: 404 .*no route for POST \/v1\/messages.*attested_stop_reason_not_stop/,
    );
    expect(existsSync(taskFile(done, ".attestation.json"))).toBe(false);
    expect(existsSync(taskFile(done, ".pi-events.jsonl"))).toBe(true);
    // No model answered for anthropic: the scripted server recorded no completion request from that run.
    expect(host.server.requests.slice(mark).filter((r) => r.model !== OUTER.id)).toEqual([]);
  });
});
