import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { READ_SCOPE_ENV, serialiseReadScope, type ReadScope } from "../domain/confinement/model/read-scope.ts";
import type { Usage } from "../domain/shared/model/usage.ts";
import type { ChildRoute, ChildStageSpec, FusionChildRunner, PreparedChild } from "../ports/fusion-child-runner.ts";

export const COVERS_PORT = "ports/fusion-child-runner.ts";

/** What the model does for the next attempt. Each twin maps it onto its own model (scripted server, script). */
export type ChildScenario =
  | {
      readonly kind: "answer";
      readonly text: string;
      readonly usage: { readonly input: number; readonly output: number };
    }
  /** One `ls` call, then this answer. */
  | { readonly kind: "tool-then-answer"; readonly text: string }
  /** The provider refuses the request (HTTP 400). */
  | { readonly kind: "provider-error" }
  /** Streams so slowly that only an abort ends the attempt within the test. */
  | { readonly kind: "slow-answer" };

export interface FusionChildRunnerSubject {
  readonly runner: FusionChildRunner;
  /** A fresh directory: the run's artifact directory and the child's cwd. */
  readonly runDir: string;
  readonly route: ChildRoute;
  script(prefix: string, scenario: ChildScenario): void;
  /** The last user text of every request the model received, in order. */
  modelRequests(): readonly string[];
  /** Resolves once the model has received `count` requests. */
  modelReached(count: number): Promise<void>;
  /** Whether anything a prepared child started is still running. */
  anyChildAlive(): Promise<boolean>;
  /** The bytes of a file the runner wrote, or undefined. */
  artifact(path: string): Promise<Uint8Array | undefined>;
}

const never = () => new AbortController().signal;

function scopeOf(subject: FusionChildRunnerSubject): ReadScope {
  const scope = subject.runner.readScope(subject.runDir);
  if (!scope.ok) throw new Error(`readScope refused the run directory: ${scope.error.message}`);
  return scope.value;
}
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const sum = (usages: readonly Usage[], key: "input" | "output") => usages.reduce((n, u) => n + u[key], 0);

export function describeFusionChildRunnerContract(
  name: string,
  makeSubject: () => Promise<FusionChildRunnerSubject>,
): void {
  describe(`FusionChildRunner contract: ${name}`, () => {
    const start = (subject: FusionChildRunnerSubject, prefix: string, tools: readonly string[] = []) => {
      const spec: ChildStageSpec = {
        runDir: subject.runDir,
        prefix,
        route: subject.route,
        tools,
        systemPrompt: "You are a Fusion stage. Answer directly.",
        cwd: subject.runDir,
        env: { [READ_SCOPE_ENV]: serialiseReadScope(scopeOf(subject)) },
      };
      const prepared = subject.runner.prepare(spec);
      if (!prepared.ok) throw new Error(`prepare failed: ${prepared.error.code}: ${prepared.error.message}`);
      return prepared.value;
    };
    const events = async (subject: FusionChildRunnerSubject, prefix: string) => {
      const bytes = await subject.artifact(`${subject.runDir}/${prefix}.events.jsonl`);
      if (bytes === undefined) throw new Error(`${prefix}.events.jsonl was not written`);
      return new TextDecoder()
        .decode(bytes)
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => (JSON.parse(line) as { stop_reason: string }).stop_reason);
    };

    it("confines reads to the project root without its .pi/, and refuses a root that is / or the home directory", async () => {
      const subject = await makeSubject();
      const scope = scopeOf(subject);
      expect(subject.runDir.endsWith(scope.root) || scope.root.endsWith(subject.runDir.split("/").at(-1) ?? "")).toBe(
        true,
      );
      expect(scope.denied).toContain(`${scope.root}/.pi`);
      const slash = subject.runner.readScope("/");
      expect(slash.ok ? "accepted" : slash.error.code).toBe("read_root_too_broad");
    });

    it("sends the exact prompt only at send, and answers on the pinned route with verified frames and artifacts", async () => {
      const subject = await makeSubject();
      const text = "Merged ✓ answer\nline two";
      subject.script("candidate-1.attempt-1", { kind: "answer", text, usage: { input: 123, output: 45 } });
      const child = start(subject, "candidate-1.attempt-1");
      expect(subject.modelRequests()).toEqual([]);
      const prompt = 'Question: what is "x"?\n\n  indented — ü 😀\tend';
      let working = 0;
      const result = await child.send(prompt, never(), () => working++);
      if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
      expect(working).toBe(1);
      expect(result.value.text).toBe(text);
      expect(result.value.frames.map((f) => [f.provider, f.model, f.stopReason, f.textBytes, f.textSha256])).toEqual([
        [subject.route.provider, subject.route.model, "stop", new TextEncoder().encode(text).length, sha256(text)],
      ]);
      expect([result.value.usage.input, result.value.usage.output]).toEqual([123, 45]);
      expect(result.value.durationMs).toBeGreaterThanOrEqual(0);
      expect(subject.modelRequests()).toEqual([prompt]);
      expect(await events(subject, "candidate-1.attempt-1")).toEqual(["stop"]);
      expect(await subject.artifact(`${subject.runDir}/candidate-1.attempt-1.stderr.txt`)).toBeDefined();
    });

    it("reports a tool turn as a frame of its own, the usage summed over every frame", async () => {
      const subject = await makeSubject();
      subject.script("candidate-2.attempt-1", { kind: "tool-then-answer", text: "saw the listing" });
      const result = await start(subject, "candidate-2.attempt-1", ["ls"]).send("list files", never());
      if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
      expect(result.value.text).toBe("saw the listing");
      expect(result.value.frames.map((f) => [f.stopReason, f.toolCalls])).toEqual([
        ["toolUse", 1],
        ["stop", 0],
      ]);
      const usages = result.value.frames.map((f) => f.usage);
      expect(result.value.usage.input).toBe(sum(usages, "input"));
      expect(result.value.usage.output).toBe(sum(usages, "output"));
      expect(await events(subject, "candidate-2.attempt-1")).toEqual(["toolUse", "stop"]);
    });

    it("fails a refused request as child_exit_failed, keeping what the attempt captured", async () => {
      const subject = await makeSubject();
      subject.script("evaluation.attempt-1", { kind: "provider-error" });
      const result = await start(subject, "evaluation.attempt-1").send("judge", never());
      if (result.ok) throw new Error("a refused request must fail the attempt");
      expect(result.error.code).toBe("child_exit_failed");
      const partial = result.error.partial;
      expect(partial?.frames.map((f) => f.stopReason)).toEqual(["error"]);
      expect(partial?.usage.input).toBe(sum(partial?.frames.map((f) => f.usage) ?? [], "input"));
      expect(await events(subject, "evaluation.attempt-1")).toEqual(["error"]);
    });

    it("cancels an attempt mid-answer: child_cancelled, and nothing it started keeps running", async () => {
      const subject = await makeSubject();
      subject.script("candidate-3.attempt-1", { kind: "slow-answer" });
      const abort = new AbortController();
      const running = start(subject, "candidate-3.attempt-1").send("stream slowly", abort.signal);
      await subject.modelReached(1);
      abort.abort();
      const result = await running;
      expect(result.ok ? "answered" : result.error.code).toBe("child_cancelled");
      expect(await subject.anyChildAlive()).toBe(false);
    });

    it("never asks the model for an attempt cancelled before its prompt was sent", async () => {
      const subject = await makeSubject();
      subject.script("merge.attempt-1", { kind: "answer", text: "unused", usage: { input: 1, output: 1 } });
      const abort = new AbortController();
      abort.abort();
      let working = 0;
      const result = await start(subject, "merge.attempt-1").send("too late", abort.signal, () => working++);
      expect(result.ok ? "answered" : result.error.code).toBe("child_cancelled");
      expect(subject.modelRequests()).toEqual([]);
      expect(working).toBe(0);
      expect(await subject.anyChildAlive()).toBe(false);
    });

    it("discards a child that never gets a prompt: the model sees nothing, nothing keeps running", async () => {
      const subject = await makeSubject();
      const child: PreparedChild = start(subject, "merge.attempt-2");
      await child.discard();
      expect(subject.modelRequests()).toEqual([]);
      expect(await subject.anyChildAlive()).toBe(false);
    });
  });
}
