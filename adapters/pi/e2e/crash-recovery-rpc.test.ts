import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeIsolatedAgentDir, type IsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import { startScriptedModelServer, type ScriptedModelServer } from "../../fake/scripted-model-server.ts";
import { startPiRpc, type PiRpcClient } from "./rpc-client.ts";
import { PACKAGE_ROOT } from "./sdk-session.ts";
import { LEAN_PI_ARGS } from "./scripted-parent.test-support.ts";
import { tagged, TaskRpc, type RpcTask as Task } from "./task-rpc.test-support.ts";

// A real crash: pi is SIGKILLed while its tasks run, and the next pi in the same project takes them over.
let server: ScriptedModelServer;
let agent: IsolatedAgentDir;
let cwd: string;
let rpc: TaskRpc;
const started: PiRpcClient[] = [];

function startPi(): PiRpcClient {
  const pi = startPiRpc({ args: [...LEAN_PI_ARGS, "-e", PACKAGE_ROOT], env: agent.env, cwd });
  started.push(pi);
  return pi;
}

const callTool = (pi: PiRpcClient, name: string, args: Record<string, unknown>) => rpc.callTool(pi, name, args);
const bgRun = (pi: PiRpcClient, args: Record<string, unknown>) => rpc.bgRun(pi, args);
const status = async (pi: PiRpcClient, id: string) => (await rpc.status(pi, id)).task;
const metadataOf = (task: Task) => rpc.metadataOf(task);
const tagOf = (task: Task) => rpc.tagOf(task);

beforeAll(async () => {
  server = await startScriptedModelServer();
  cwd = mkdtempSync(join(tmpdir(), "bg-crash-"));
  agent = await writeIsolatedAgentDir({ dir: join(cwd, ".agent"), baseUrl: server.baseUrl });
  rpc = new TaskRpc(server, cwd);
});

afterAll(async () => {
  for (const pi of started) await pi.close().catch(() => undefined);
  await server?.close();
});

describe("a Pi host that dies while its tasks run", () => {
  let finishing: Task;
  let longRunning: Task;
  let second: PiRpcClient;

  it("the next pi in the project records the real exit code and reattaches the task that still runs", async () => {
    const first = startPi();
    finishing = await bgRun(first, {
      name: "finishes after the crash",
      command: "echo before-crash; sleep 2; echo after-crash; exit 7",
    });
    longRunning = await bgRun(first, {
      name: "keeps running",
      command: "echo started-b; while true; do echo tick; sleep 0.2; done",
    });
    expect(tagged(tagOf(longRunning)).length).toBeGreaterThan(0);
    // The first host captured some output before it died.
    await expect
      .poll(() => readFileSync(join(cwd, finishing.outputPath), "utf8"), { timeout: 10_000 })
      .toContain("before-crash");
    await expect
      .poll(() => readFileSync(join(cwd, longRunning.outputPath), "utf8"), { timeout: 10_000 })
      .toContain("tick");

    process.kill(first.pid, "SIGKILL"); // only the pi process: each task leads its own process group
    await first.exited;
    const exitRecord = join(cwd, finishing.outputPath.replace(/\.output$/, ".exit.json"));
    // Reserved (empty) when the task started; written by the supervisor once the command has ended.
    await expect.poll(() => statSync(exitRecord).size > 0, { timeout: 10_000, interval: 100 }).toBe(true);
    expect(metadataOf(finishing).status).toBe("running"); // the dead host never finalized it

    second = startPi();
    const a = await status(second, finishing.id);
    expect(a).toMatchObject({ status: "failed", exitCode: 7 });
    expect(a.error).toContain("Exited with code 7");
    expect(a.error).toContain("the Pi host died while this task ran; its exit status was recorded by the supervisor");
    expect(metadataOf(finishing)).toMatchObject({ status: "failed", exitCode: 7, recovery: { hostEnded: "died" } });

    const b = await status(second, longRunning.id);
    expect(b.status).toBe("running");
    expect(b.recovery?.hostEnded).toBe("died");
    // The supervisor kept the output it could no longer hand to the dead host.
    await expect
      .poll(async () => (await status(second, longRunning.id)).recovery?.spilledBytes ?? 0, {
        timeout: 10_000,
        interval: 300,
      })
      .toBeGreaterThan(0);
    const logs = await callTool(second, "bg_logs", { taskId: longRunning.id, tail: false });
    // What the first host captured, then what the supervisor saved after it died.
    expect(logs.text).toMatch(/^started-b\ntick\n[^]*stopped reading here[^]*\ntick\n/);
    const a2 = await callTool(second, "bg_logs", { taskId: finishing.id, tail: false });
    expect(a2.text).toMatch(/^before-crash\n[^]*stopped reading here[^]*\nafter-crash\n/);

    const tag = tagOf(longRunning);
    const killed = await callTool(second, "bg_kill", { taskId: longRunning.id });
    expect(killed.isError, killed.text).toBe(false);
    expect(killed.text).toContain("Status: killed");
    expect(tagged(tag)).toEqual([]);
    expect(metadataOf(longRunning)).toMatchObject({
      status: "killed",
      killKind: "user",
      recovery: { hostEnded: "died" },
    });
  }, 90_000);

  it("surviveReload keeps a task running through a clean shutdown, normal tasks are stopped, and the next session reattaches it", async () => {
    const survivor = await bgRun(second, {
      name: "dev server",
      command: "echo d-start; while true; do sleep 0.3; done",
      surviveReload: true,
    });
    const normal = await bgRun(second, { name: "ordinary", command: "sleep 300" });
    const survivorTag = tagOf(survivor);
    const normalTag = tagOf(normal);
    await expect
      .poll(() => readFileSync(join(cwd, survivor.outputPath), "utf8"), { timeout: 5_000 })
      .toContain("d-start");

    const closed = await second.close(); // stdin EOF: session_shutdown
    expect(closed.groupSurvivors).toBe(false);
    expect(tagged(normalTag)).toEqual([]);
    expect(metadataOf(normal).status).toBe("killed");
    expect(tagged(survivorTag).length).toBeGreaterThan(0);
    expect(metadataOf(survivor)).toMatchObject({ status: "running", surviveReload: true });

    const third = startPi();
    const reattached = await status(third, survivor.id);
    expect(reattached).toMatchObject({ status: "running", recovery: { hostEnded: "detached" } });
    const logs = await callTool(third, "bg_logs", { taskId: survivor.id, tail: false });
    expect(logs.text).toContain("d-start");
    const killed = await callTool(third, "bg_kill", { taskId: survivor.id });
    expect(killed.text).toContain("Status: killed");
    expect(tagged(survivorTag)).toEqual([]);
    await third.close();
  }, 90_000);

  it("a surviveReload task whose session closes while it prints loses nothing: its output file and spill file hold every byte, in order", async () => {
    const host = startPi();
    const lines = 400_000;
    const chatty = await bgRun(host, {
      name: "chatty",
      command: `i=0; while [ $i -lt 40 ]; do seq $((i*10000+1)) $((i*10000+10000)); i=$((i+1)); sleep 0.1; done`,
      surviveReload: true,
    });
    await expect
      .poll(() => statSync(join(cwd, chatty.outputPath)).size, { timeout: 10_000, interval: 20 })
      .toBeGreaterThan(100_000);
    await host.close(); // while it still prints: the session lets go of it
    expect(metadataOf(chatty)).toMatchObject({ status: "running", detachedInOrder: true });

    const next = startPi();
    await expect
      .poll(async () => (await status(next, chatty.id)).status, { timeout: 30_000, interval: 250 })
      .toBe("completed");
    const spillPath = join(cwd, chatty.outputPath.replace(/\.output$/, ".after-host.output"));
    const saved = readFileSync(join(cwd, chatty.outputPath), "utf8") + readFileSync(spillPath, "utf8");
    expect(saved.length).toBe(Array.from({ length: lines }, (_, i) => `${i + 1}\n`).join("").length);
    expect(saved === Array.from({ length: lines }, (_, i) => `${i + 1}\n`).join("")).toBe(true);
    expect((await status(next, chatty.id)).error ?? "").not.toContain("still in the pipe");
    await next.close();
  }, 90_000);
});
