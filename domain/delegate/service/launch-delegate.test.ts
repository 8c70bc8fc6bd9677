import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../shared/model/canonical-json.ts";
import { launchDelegate } from "./launch-delegate.ts";
import { retrieveDelegateResult } from "./retrieve-delegate-result.ts";
import { commitAnswer, decode, encode, launched, onlyProcess, request, world } from "./launch-delegate.test-support.ts";
import { serialiseReadScope } from "../../confinement/model/read-scope.ts";

const KERNEL = ["/proc", "/sys", "/dev"];

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
        PI_BG_READ_SCOPE: serialiseReadScope({ root: "/proj", denied: ["/proj/.pi", "/home/u/.pi/agent", ...KERNEL] }),
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
