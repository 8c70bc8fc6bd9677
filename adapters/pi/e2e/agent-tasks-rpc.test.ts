import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TaskSnapshot } from "../../../domain/tasks/model/task-snapshot.ts";
import { usageAsPiReads } from "../../fake/scripted-completion.ts";
import { INNER, innerPi, useAgentTasksHost } from "./agent-tasks-rpc.test-support.ts";
import { piVersion } from "./pi-cli.ts";

// isAgent bg_run end to end: the outer pi starts inner pi children whose telemetry lands on the task snapshot.

const host = useAgentTasksHost();
const { callTool, innerReplies, terminal } = host;

describe("isAgent bg_run of an inner pi (through pi --mode rpc)", () => {
  it("the snapshot carries exactly the scripted tokens, cost, context and tool counts, and the output is a transcript", async () => {
    const cached = { input: 1500, output: 40, cacheRead: 300, cacheWrite: 100 };
    innerReplies.push(
      {
        toolCalls: [
          { name: "read", arguments: { path: "notes.txt" } },
          { name: "read", arguments: { path: "missing.txt" } },
        ],
        usage: { input: 1200, output: 80 },
      },
      { text: "inner done", usage: cached },
    );
    // The same wire bytes read as Pi itself reads them (Pi 0.x moves cache writes out of the cache reads).
    const read = usageAsPiReads(cached, piVersion());
    const started = await callTool("bg_run", {
      name: "inner agent",
      command: innerPi("inspect the notes", "-p"),
      isAgent: true,
      notifyOnCompletion: false,
    });
    expect(started.isError, started.text).toBe(false);
    expect(started.task?.telemetryUnavailableReason).toBeUndefined();
    expect(started.text).toContain("Agent telemetry: on");
    const done = await terminal(started.task as TaskSnapshot);
    expect(done.status, done.error).toBe("completed");
    const last = 1500 + 40 + 300 + 100;
    const input = 1200 + read.input;
    expect(done.tokenUsage).toMatchObject({
      input,
      output: 120,
      cacheRead: read.cacheRead,
      cacheWrite: 100,
      totalTokens: 1200 + 80 + last,
    });
    expect(done.tokenUsage?.costTotal).toBeCloseTo(
      (input * 3 + 120 * 15 + read.cacheRead * 0.3 + 100 * 3.75) / 1e6,
      12,
    );
    expect(done.contextUsage).toEqual({
      tokens: last,
      contextWindow: INNER.contextWindow,
      percent: (last / INNER.contextWindow) * 100,
    });
    expect(done.toolUsage).toEqual({ total: 2, failed: 1, byName: { read: 2 } });
    expect(done.model).toBe(`scripted/${INNER.id}`);
    const transcript = readFileSync(join(host.repo, done.outputPath), "utf8");
    expect(transcript.split("\n")).toEqual([
      "→ read(path: notes.txt)",
      "→ read(path: missing.txt)",
      expect.stringMatching(/^✗ read failed: .*missing\.txt/),
      "inner done",
      "",
    ]);
    const status = await callTool("bg_status", { taskId: done.id });
    expect((status.details?.tasks as TaskSnapshot[] | undefined)?.[0]).toMatchObject({
      tokenUsage: done.tokenUsage,
      toolUsage: done.toolUsage,
    });
  });

  it("a failed model call fails the task although the json-mode child exited 0", async () => {
    innerReplies.push({
      httpError: { status: 400, body: { error: { message: "scripted quota refusal", type: "invalid_request_error" } } },
    });
    const started = await callTool("bg_run", {
      name: "failing agent",
      command: innerPi("this call fails", "--mode json"),
      isAgent: true,
      notifyOnCompletion: false,
    });
    const done = await terminal(started.task as TaskSnapshot);
    expect(done.exitCode).toBe(0);
    expect(done.status).toBe("failed");
    expect(done.error).toMatch(/pi_model_call_failed.*scripted quota refusal/);
    expect(readFileSync(join(host.repo, done.outputPath), "utf8")).toMatch(
      /\[stopReason: error\] .*scripted quota refusal/,
    );
  });

  it("a path-qualified pi is left alone and the reason is on the snapshot", async () => {
    const started = await callTool("bg_run", {
      name: "qualified",
      command: "/nonexistent/bin/pi -p hello || true",
      isAgent: true,
      notifyOnCompletion: false,
    });
    expect(started.task?.telemetryUnavailableReason).toBe("path-qualified-pi-not-wrapped");
    expect(started.text).toContain("Agent telemetry: unavailable (path-qualified-pi-not-wrapped)");
    expect((await terminal(started.task as TaskSnapshot)).tokenUsage).toBeUndefined();
  });
});
