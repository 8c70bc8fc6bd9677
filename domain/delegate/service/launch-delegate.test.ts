import { BASELINE_PI_FLAGS } from "../../shared/model/pi-cli-flags.ts";
import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeProcessLauncher } from "../../../adapters/fake/fake-process-launcher.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { canonicalJsonOf, sha256Hex } from "../../shared/model/canonical-json.ts";
import { err, ok } from "../../shared/model/result.ts";
import type { ConversationSource } from "../../../ports/conversation-source.ts";
import { ACTIVE, attestation, branch, MODELS, supportedEvidence } from "../model/delegate-fixtures.test-support.ts";
import { buildResultPackage } from "../model/result-package.ts";
import type { DelegateHost, DelegateLaunchRequest, DelegatePorts } from "./delegate-ports.ts";
import { launchDelegate, type DelegateHandle } from "./launch-delegate.ts";
import { retrieveDelegateResult } from "./retrieve-delegate-result.ts";

const HOST: DelegateHost = {
  nodePath: "/usr/bin/node",
  cliPath: "/pi/cli.js",
  piVersion: "0.73.1",
  piFlags: BASELINE_PI_FLAGS,
  guardExtensionPath: "/pkg/guard.ts",
  anthropicSanitizerPath: "/pkg/sanitizer.ts",
  hookEvidenceDir: "/pkg/evidence",
};
const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array | "deferred" | undefined) =>
  new TextDecoder().decode(bytes instanceof Uint8Array ? bytes : undefined);

interface World {
  readonly files: InMemoryFileCommitter;
  readonly launcher: FakeProcessLauncher;
  readonly clock: FakeClock;
  readonly ports: DelegatePorts;
  readonly envCalls: Record<string, string>[];
}

async function world(
  options: { evidence?: boolean; guard?: boolean; conversation?: ConversationSource } = {},
): Promise<World> {
  const files = new InMemoryFileCommitter();
  const clock = new FakeClock();
  // The default fake child runs until it is killed or the test finishes it.
  const launcher = new FakeProcessLauncher({ clock, script: () => ({}) });
  await files.ensureDir("/pkg");
  await files.ensureDir("/pkg/evidence");
  await files.ensureDir("/pi");
  await files.ensureDir("/proj");
  await files.replaceAtomic("/pi/cli.js", encode("// pi"));
  if (options.guard !== false) await files.replaceAtomic("/pkg/guard.ts", encode("// guard"));
  if (options.evidence !== false)
    await files.replaceAtomic("/pkg/evidence/pi-0.73.1.json", encode(canonicalJsonOf(supportedEvidence())));
  const envCalls: Record<string, string>[] = [];
  const ports: DelegatePorts = {
    files,
    launcher,
    clock,
    random: new SeededRandomSource(7),
    conversation: options.conversation ?? {
      capture: () => ok({ cwd: "/proj", systemPrompt: "You are the parent.", messages: branch() }),
    },
    childEnv: (extra) => {
      envCalls.push({ ...extra });
      return { PATH: "/bin", ...extra };
    },
  };
  return { files, launcher, clock, ports, envCalls };
}

const request = (overrides: Partial<DelegateLaunchRequest> = {}): DelegateLaunchRequest => ({
  rawArguments: { name: "review", prompt: "Review parse()." },
  toolCallId: ACTIVE,
  location: { baseDir: "/proj", sessionId: "sess/1", pid: 42 },
  currentRoute: { provider: "p", model: "big" },
  availableModels: MODELS,
  host: HOST,
  ...overrides,
});

async function launched(w: World, overrides: Partial<DelegateLaunchRequest> = {}): Promise<DelegateHandle> {
  const result = await launchDelegate(w.ports, request(overrides));
  if (!result.ok) throw new Error(result.error.message);
  return result.value.handle;
}

async function commitAnswer(w: World, handle: DelegateHandle, answer: string): Promise<void> {
  const built = buildResultPackage(handle.identity, answer, [attestation(0)], {
    turns: 1,
    tool_calls: 0,
    spilled_results: 0,
    tool_output_bytes: 0,
  });
  if (!built.ok) throw new Error(built.error.message);
  await w.files.replaceAtomic(`${handle.artifactDir}/result.json`, encode(built.value.json));
}

const onlyProcess = (w: World) => {
  const proc = w.launcher.processes[0];
  if (proc === undefined) throw new Error("no child was launched");
  return proc;
};

describe("launchDelegate: admission leaves nothing behind", () => {
  const refusals: [string, () => Promise<World>, Partial<DelegateLaunchRequest>, string][] = [
    ["missing hook evidence", () => world({ evidence: false }), {}, "delegate_hook_contract_unsupported"],
    [
      "an unproven Pi version",
      () => world(),
      { host: { ...HOST, piVersion: "0.80.0" } },
      "delegate_hook_contract_unsupported",
    ],
    [
      "invalid arguments",
      () => world(),
      { rawArguments: { name: "n", prompt: "p", shell: true } },
      "invalid_arguments",
    ],
    ["a missing guard", () => world({ guard: false }), {}, "delegate_isolation_unsupported"],
    ["no Pi CLI", () => world(), { host: { ...HOST, cliPath: undefined } }, "delegate_isolation_unsupported"],
    ["an unknown route", () => world(), { currentRoute: { provider: "p", model: "gone" } }, "route_unresolved"],
    [
      "a route without a window",
      () => world(),
      { currentRoute: { provider: "p", model: "nowindow" } },
      "route_capacity_unknown",
    ],
    [
      "an unreadable conversation",
      () => world({ conversation: { capture: () => err({ code: "context_capture_failed", message: "boom" }) } }),
      {},
      "seed_projection_failed",
    ],
    [
      "a conversation over budget",
      () =>
        world({
          conversation: {
            capture: () =>
              ok({ cwd: "/proj", systemPrompt: "s", messages: [{ role: "user", content: "x".repeat(20_000) }] }),
          },
        }),
      { currentRoute: { provider: "p", model: "small" } },
      "seed_budget_exceeded",
    ],
    [
      "an anthropic route without the sanitizer",
      () => world(),
      {
        host: { ...HOST, anthropicSanitizerPath: undefined },
        currentRoute: { provider: "anthropic", model: "c" },
        availableModels: [{ provider: "anthropic", model: "c", contextWindow: 200_000 }],
      },
      "delegate_isolation_unsupported",
    ],
  ];

  it.each(refusals)("%s: typed refusal, zero children, zero artifacts", async (_what, make, overrides, code) => {
    const w = await make();
    const result = await launchDelegate(w.ports, request(overrides));
    expect(result.ok ? "launched" : result.error.code).toBe(code);
    expect(result.ok ? true : result.error.childCreated).toBe(false);
    expect(w.launcher.launches).toHaveLength(0);
    expect(w.files.listDir("/proj")).toEqual([]);
  });

  it("a release with no recorded evidence is proved at launch: launched when the proof holds", async () => {
    const w = await world();
    let proofs = 0;
    const prove = async () => {
      proofs += 1;
      return { ...supportedEvidence(), pi_version: "1.9.0" };
    };
    const result = await launchDelegate(
      w.ports,
      request({ host: { ...HOST, piVersion: "1.9.0", proveHookContract: prove } }),
    );
    expect(result.ok ? "launched" : result.error.message).toBe("launched");
    expect(proofs).toBe(1);
    expect(w.launcher.launches).toHaveLength(1);
  });

  it("a release whose proof fails, or cannot run, is refused naming what failed, with zero children", async () => {
    const broken = {
      ...supportedEvidence(),
      pi_version: "1.9.0",
      context: { ...supportedEvidence().context, abort_terminates_run: false },
    };
    const cases: [() => Promise<unknown>, string][] = [
      [async () => broken, "`ctx.abort()` from `context` terminates the run"],
      [
        async () => {
          throw new Error("the probe Pi exited 1");
        },
        "proving it there failed: the probe Pi exited 1",
      ],
    ];
    for (const [prove, said] of cases) {
      const w = await world();
      const result = await launchDelegate(
        w.ports,
        request({ host: { ...HOST, piVersion: "1.9.0", proveHookContract: prove } }),
      );
      expect(result.ok ? "launched" : result.error.code).toBe("delegate_hook_contract_unsupported");
      expect(result.ok ? "" : result.error.message).toContain(said);
      expect(w.launcher.launches).toHaveLength(0);
      expect(w.files.listDir("/proj")).toEqual([]);
    }
  });

  it("recorded evidence is used as it is: no proof runs for a recorded release", async () => {
    const w = await world();
    const result = await launchDelegate(
      w.ports,
      request({ host: { ...HOST, proveHookContract: () => Promise.reject(new Error("must not run")) } }),
    );
    expect(result.ok).toBe(true);
  });

  it("a failed seed write starts no child", async () => {
    const w = await world();
    w.files.failNext("replaceAtomic", "ENOSPC");
    const result = await launchDelegate(w.ports, request());
    expect(result.ok ? "launched" : result.error).toMatchObject({ code: "seed_persist_failed", childCreated: false });
    expect(w.launcher.launches).toHaveLength(0);
  });
});

describe("launchDelegate: launch", () => {
  it("persists the seed and its companions, then starts one isolated child with the prompt on stdin", async () => {
    const w = await world();
    const result = await launchDelegate(w.ports, request({ taskId: "dtask1" }));
    if (!result.ok) throw new Error(result.error.message);
    const { receipt, handle } = result.value;
    const dir = "/proj/.pi/delegate/sess_1-42/dtask1";
    expect(handle.artifactDir).toBe(dir);
    expect(w.files.listDir(dir)).toEqual([
      "budget-plan.json",
      "child-prompt.txt",
      "child-session",
      "context-omission-ledger.json",
      "manifest.json",
      "seed.json",
      "spill",
    ]);
    const [launch] = w.launcher.launches;
    expect(decode(launch?.stdin)).toBe(decode(w.files.contents(`${dir}/child-prompt.txt`)));
    expect(launch?.command).toMatchObject({ kind: "argv", file: "/usr/bin/node" });
    expect(launch?.cwd).toBe("/proj");
    const seed = w.files.contents(`${dir}/seed.json`) ?? new Uint8Array();
    const manifest = JSON.parse(decode(w.files.contents(`${dir}/manifest.json`))) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      task_id: "dtask1",
      seed_sha256: sha256Hex(seed),
      state: "launching",
      mode: "isolated",
    });
    expect(w.envCalls).toEqual([
      {
        PI_BG_DELEGATE_ARTIFACT_DIR: dir,
        PI_BG_DELEGATE_SEED_PATH: `${dir}/seed.json`,
        PI_BG_DELEGATE_SEED_SHA256: sha256Hex(seed),
        PI_BG_DELEGATE_TASK_ID: "dtask1",
        PI_BG_DELEGATE_LAUNCH_NONCE: manifest.launch_nonce as string,
        PI_SKIP_VERSION_CHECK: "1",
      },
    ]);
    expect(receipt).toMatchObject({
      task_id: "dtask1",
      state: "running",
      seed: { sha256: sha256Hex(seed) },
      child_session_id: manifest.child_session_id,
      artifact_dir: dir,
    });
    expect(receipt.message).toContain("do not poll");
    onlyProcess(w).finish({ code: 0 });
    await handle.whenDone();
  });

  it("a committed answer completes the run: verified, written as answer.md, returned by bg_result", async () => {
    const w = await world();
    const handle = await launched(w);
    expect(await retrieveDelegateResult(w.files, handle.taskId, handle)).toMatchObject({
      ok: true,
      value: { state: "running", code: "result_not_ready" },
    });
    await commitAnswer(w, handle, "The parser is fine.");
    onlyProcess(w).finish({ code: 0 });
    const outcome = await handle.whenDone();
    expect(outcome).toMatchObject({ state: "completed", error: null });
    expect(decode(w.files.contents(`${handle.artifactDir}/answer.md`))).toBe("The parser is fine.");
    expect(JSON.parse(decode(w.files.contents(`${handle.artifactDir}/outcome.json`)))).toEqual(outcome);
    const view = await retrieveDelegateResult(w.files, handle.taskId, handle);
    expect(view.ok && view.value.delivery === "inline" && view.value.answer.text).toBe("The parser is fine.");
    expect(handle.isRunning()).toBe(false);
  });

  it("a large answer is an explicit artifact reference; inline is refused; a tampered file is caught", async () => {
    const w = await world();
    const handle = await launched(w);
    const answer = "long line\n".repeat(6_000);
    await commitAnswer(w, handle, answer);
    onlyProcess(w).finish({ code: 0 });
    await handle.whenDone();
    const view = await retrieveDelegateResult(w.files, handle.taskId, handle);
    expect(view.ok && view.value.delivery === "artifact" && view.value.answer).toMatchObject({
      artifact: `${handle.artifactDir}/answer.md`,
      utf8_bytes: answer.length,
    });
    const inline = await retrieveDelegateResult(w.files, handle.taskId, handle, "inline");
    expect(inline.ok ? "inline" : inline.error.code).toBe("result_too_large_for_inline");
    await w.files.replaceAtomic(`${handle.artifactDir}/answer.md`, encode(answer.replace("long", "lung")));
    const tampered = await retrieveDelegateResult(w.files, handle.taskId, handle);
    expect(tampered.ok ? "returned" : tampered.error.code).toBe("answer_hash_mismatch");
    const packageBytes = w.files.contents(`${handle.artifactDir}/result.json`) ?? new Uint8Array();
    packageBytes[packageBytes.length - 3] = (packageBytes[packageBytes.length - 3] ?? 0) ^ 1;
    await w.files.replaceAtomic(`${handle.artifactDir}/result.json`, packageBytes);
    const corrupted = await retrieveDelegateResult(w.files, handle.taskId, handle, "inline");
    expect(corrupted.ok ? "returned" : corrupted.error.code).toBe("child_result_invalid");
  });

  it("a child that exits 0 without committing is child_exited_without_commit, never an empty success", async () => {
    const w = await world();
    const handle = await launched(w);
    onlyProcess(w).finish({ code: 0 });
    const outcome = await handle.whenDone();
    expect(outcome).toMatchObject({
      state: "failed",
      usage: "unavailable",
      error: { code: "child_exited_without_commit" },
    });
    expect(await retrieveDelegateResult(w.files, handle.taskId, handle)).toMatchObject({
      ok: true,
      value: { code: "result_unavailable", state: "failed" },
    });
  });

  it("stops the child group at the wall-clock limit", async () => {
    const w = await world();
    const handle = await launched(w, { rawArguments: { name: "n", prompt: "p", timeoutSeconds: 30 } });
    w.clock.advance(29_999);
    expect(onlyProcess(w).leaderAlive).toBe(true);
    w.clock.advance(1);
    const outcome = await handle.whenDone();
    expect(outcome).toMatchObject({
      state: "timed_out",
      error: { code: "child_timeout" },
      child: { signal: "SIGTERM" },
    });
  });

  it("cancel stops the child and reports child_cancelled", async () => {
    const w = await world();
    const handle = await launched(w);
    const outcome = await handle.cancel();
    expect(outcome).toMatchObject({ state: "cancelled", error: { code: "child_cancelled" } });
    expect(onlyProcess(w).groupAlive).toBe(false);
  });

  it("a spawn failure is typed, starts nothing and is recorded", async () => {
    const w = await world();
    w.launcher.on(() => true, { spawnError: "ENOENT node" });
    const result = await launchDelegate(w.ports, request({ taskId: "dspawn" }));
    expect(result.ok ? "launched" : result.error).toMatchObject({ code: "child_spawn_failed", childCreated: false });
    const outcome = JSON.parse(decode(w.files.contents("/proj/.pi/delegate/sess_1-42/dspawn/outcome.json"))) as Record<
      string,
      unknown
    >;
    expect(outcome).toMatchObject({ state: "failed", error: { code: "child_spawn_failed" } });
  });

  it("bg_result knows nothing of an unknown task", async () => {
    const w = await world();
    const view = await retrieveDelegateResult(w.files, "nope", undefined);
    expect(view.ok ? view.value : view.error.code).toBe("task_unknown");
  });
});
