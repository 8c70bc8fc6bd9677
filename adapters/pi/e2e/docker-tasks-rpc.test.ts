import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeIsolatedAgentDir, type IsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import { type RemoteEngine, startRemoteEngine } from "../../fake/remote-engine.test-support.ts";
import { startScriptedModelServer, type ScriptedModelServer } from "../../fake/scripted-model-server.ts";
import { buildTaskImage, requireDockerEngine, requireSwarm, TASK_IMAGE } from "../../fake/task-image.test-support.ts";
import type { PiRecord } from "./jsonl-lines.ts";
import { startPiRpc, type PiRpcClient } from "./rpc-client.ts";
import { LEAN_PI_ARGS } from "./scripted-parent.test-support.ts";
import { PACKAGE_ROOT } from "./sdk-session.ts";
import { type RpcTask, TaskRpc } from "./task-rpc.test-support.ts";

// bg_run with runOn "docker" through the real Pi host: a container on the local engine per task.
const FILE = "adapters/pi/e2e/docker-tasks-rpc.test.ts";
const engineAvailable = await requireDockerEngine(FILE);
const swarmAvailable = engineAvailable && (await requireSwarm(FILE));
const docker = new Docker();
let server: ScriptedModelServer;
let agent: IsolatedAgentDir;
let rpc: TaskRpc;
let pi: PiRpcClient;
let cwd: string;

type Notice = { customType: string; content: string; details: { id: string } };
const noticeFor = (id: string) => (e: PiRecord) =>
  e.type === "message_end" &&
  (e.message as Notice).customType === "background-task-notification" &&
  (e.message as Notice).details.id === id;

const containersOf = async (taskId: string) =>
  docker.listContainers({ all: true, filters: { label: [`pi-background-tasks.task=${taskId}`] } });

/**
 * Starts a container task, SIGKILLs pi while it runs, starts a new pi: the task is reattached, ends with the
 * engine's exit code, every byte once (the new host's part after a marker), and nothing is left on the engine.
 */
async function outlivesItsHost(runOn: "docker" | "swarm"): Promise<string> {
  const go = `go-${runOn}`;
  const task = await rpc.bgRun(pi, {
    name: "outlives its host",
    // Whole lines (the engine logs a partial line only at its end); it goes on once the test creates the file.
    command: `echo before; while [ ! -e ${go} ]; do sleep 0.1; done; echo after; exit 6`,
    runOn,
    image: TASK_IMAGE,
  });
  await expect.poll(() => readFileSync(join(cwd, task.outputPath), "utf8"), { timeout: 30_000 }).toBe("before\n");
  process.kill(pi.pid, "SIGKILL");
  await pi.exited;
  expect(await containersOf(task.id)).toHaveLength(1); // the engine keeps running it
  pi = startPiRpc({ args: [...LEAN_PI_ARGS, "-e", PACKAGE_ROOT], env: agent.env, cwd });
  const running = await rpc.status(pi, task.id);
  expect(running.task, JSON.stringify(rpc.metadataOf(task))).toMatchObject({ status: "running" });
  writeFileSync(join(cwd, go), "");
  await pi.waitFor(noticeFor(task.id), 30_000);
  expect(rpc.metadataOf(task)).toMatchObject({ status: "failed", exitCode: 6 });
  const logs = await rpc.callTool(pi, "bg_logs", { taskId: task.id, tail: false });
  expect(logs.text).toMatch(
    /before\n\n\[pi-background-tasks: the host that started this task stopped reading here[^\n]*\]\nafter\n/,
  );
  expect(logs.text.split("before")).toHaveLength(2);
  expect(logs.text.split("after")).toHaveLength(2);
  expect(await containersOf(task.id)).toEqual([]);
  return task.id;
}

beforeAll(async () => {
  if (!engineAvailable) return;
  await buildTaskImage();
  server = await startScriptedModelServer();
  cwd = mkdtempSync(join(tmpdir(), "bg-docker-"));
  agent = await writeIsolatedAgentDir({ dir: join(cwd, ".agent"), baseUrl: server.baseUrl });
  rpc = new TaskRpc(server, cwd);
  pi = startPiRpc({
    args: [...LEAN_PI_ARGS, "-e", PACKAGE_ROOT],
    env: { ...agent.env, SECRET_TOKEN: "host-only" },
    cwd,
  });
}, 120_000);

afterAll(async () => {
  await pi?.close().catch(() => undefined);
  await server?.close();
});

describe.runIf(engineAvailable)("bg_run runOn docker through pi --mode rpc", () => {
  it("runs in a container of the image, in the project, without the host's environment; the output is read back and the agent is woken", async () => {
    const task = await rpc.bgRun(pi, {
      name: "in a container",
      command:
        'echo "in $(pwd) token=${SECRET_TOKEN:-none}"; ls /sys/class/net; echo made > from-container.txt; exit 3',
      runOn: "docker",
      image: TASK_IMAGE,
      triggerOnCompletion: true,
    });
    server.enqueue({ text: "read the notice" }); // the turn the notice starts
    const noticeEvent = await pi.waitFor(noticeFor(task.id), 30_000);
    expect((noticeEvent.message as Notice).content).toContain("<status>failed</status>");
    await pi.waitFor((e) => e.type === "agent_end", 30_000, pi.events.indexOf(noticeEvent)); // the agent was woken
    const logs = await rpc.callTool(pi, "bg_logs", { taskId: task.id, tail: false });
    expect(logs.text).toContain(`in ${cwd} token=none\nlo\n`);
    expect(readFileSync(join(cwd, "from-container.txt"), "utf8")).toBe("made\n");
    expect(rpc.metadataOf(task)).toMatchObject({ status: "failed", exitCode: 3 });
    const metadata = JSON.parse(readFileSync(join(cwd, task.outputPath.replace(/\.output$/, ".json")), "utf8"));
    expect(metadata.container).toMatchObject({ runOn: "docker", image: TASK_IMAGE, tree: "bind" });
    expect(await containersOf(task.id)).toEqual([]); // removed once its end was durable
  }, 90_000);

  it("bg_kill stops the container and leaves none behind", async () => {
    const task = await rpc.bgRun(pi, {
      name: "long",
      command: "echo started; sleep 300",
      runOn: "docker",
      image: TASK_IMAGE,
    });
    await expect.poll(async () => (await containersOf(task.id)).length, { timeout: 20_000 }).toBe(1);
    const killed = await rpc.callTool(pi, "bg_kill", { taskId: task.id });
    expect(killed.text).toContain("Status: killed");
    await expect.poll(async () => (await containersOf(task.id)).length, { timeout: 20_000 }).toBe(0);
  }, 90_000);

  it("a host SIGKILLed while its container task runs: the next pi reattaches it and records the engine's exit code, with every byte once", async () => {
    await outlivesItsHost("docker");
  }, 120_000);

  it("an image the engine lacks: a typed error naming what to do, and nothing is created", async () => {
    const before = existsSync(join(cwd, ".pi")) ? readdirSync(join(cwd, ".pi"), { recursive: true }).length : 0;
    const refused = await rpc.callTool(pi, "bg_run", {
      command: "true",
      isAgent: false,
      runOn: "docker",
      image: "pi-bg-no-such-image:1",
    });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("container_image_missing");
    expect(refused.text).toContain("docker pull pi-bg-no-such-image:1");
    const after = existsSync(join(cwd, ".pi")) ? readdirSync(join(cwd, ".pi"), { recursive: true }).length : 0;
    expect(after).toBe(before);
  }, 60_000);
});

describe.runIf(swarmAvailable)("bg_run runOn swarm through pi --mode rpc", () => {
  const servicesOf = (taskId: string) =>
    docker.listServices({ filters: { label: [`pi-background-tasks.task=${taskId}`] } });

  it("runs as a Swarm job: output read back, the notice, the engine's exit code, and no service or container left", async () => {
    const task = await rpc.bgRun(pi, {
      name: "a job",
      command: "echo in a job; exit 4",
      runOn: "swarm",
      image: TASK_IMAGE,
    });
    await pi.waitFor(noticeFor(task.id), 60_000);
    expect(rpc.metadataOf(task)).toMatchObject({ status: "failed", exitCode: 4 });
    const metadata = JSON.parse(readFileSync(join(cwd, task.outputPath.replace(/\.output$/, ".json")), "utf8"));
    expect(metadata.container).toMatchObject({ runOn: "swarm", image: TASK_IMAGE });
    const logs = await rpc.callTool(pi, "bg_logs", { taskId: task.id, tail: false });
    expect(logs.text).toContain("in a job\n");
    expect(await servicesOf(task.id)).toEqual([]);
    expect(await containersOf(task.id)).toEqual([]);
  }, 90_000);

  it("a host SIGKILLed while its job runs: the next pi reattaches it, records the exit code, every byte once, and removes the service", async () => {
    expect(await servicesOf(await outlivesItsHost("swarm"))).toEqual([]);
  }, 120_000);

  it("bg_kill stops the job, and removes its service", async () => {
    const task = await rpc.bgRun(pi, { name: "long job", command: "sleep 300", runOn: "swarm", image: TASK_IMAGE });
    await expect.poll(async () => (await containersOf(task.id)).length, { timeout: 30_000 }).toBe(1);
    const killed = await rpc.callTool(pi, "bg_kill", { taskId: task.id });
    expect(killed.text).toContain("Status: killed");
    await expect.poll(async () => (await servicesOf(task.id)).length, { timeout: 20_000 }).toBe(0);
    expect(await containersOf(task.id)).toEqual([]);
  }, 90_000);
});

describe.runIf(engineAvailable)(
  "bg_run runOn docker on a remote engine (DOCKER_HOST=tcp://… with TLS) through pi --mode rpc",
  () => {
    let engine: RemoteEngine;
    let remotePi: PiRpcClient;
    let project: string;

    beforeAll(async () => {
      engine = await startRemoteEngine();
      project = mkdtempSync(join(tmpdir(), "bg-remote-project-"));
      writeFileSync(join(project, "input.txt"), "from the host\n");
      remotePi = startPiRpc({
        args: [...LEAN_PI_ARGS, "-e", PACKAGE_ROOT],
        env: { ...agent.env, ...engine.env },
        cwd: project,
      });
    }, 180_000);

    afterAll(async () => {
      await remotePi?.close().catch(() => undefined);
      await engine?.stop();
    }, 60_000);

    it("the task runs on that engine in a copy of the project: the receipt says so, the output is read back, the host's files stay, nothing is left there", async () => {
      const remoteRpc = new TaskRpc(server, project);
      const started = await remoteRpc.callTool(remotePi, "bg_run", {
        name: "remote",
        command: "cat input.txt; echo changed > input.txt; cat input.txt; exit 2",
        isAgent: false,
        triggerOnCompletion: false,
        runOn: "docker",
        image: TASK_IMAGE,
      });
      expect(started.isError, started.text).toBe(false);
      expect(started.text).toContain(`on ${engine.env.DOCKER_HOST} (TLS)`);
      expect(started.text).toContain("the project directory was copied to the same path there");
      const task = (started.details as { task: RpcTask }).task;
      await remotePi.waitFor(noticeFor(task.id), 60_000);
      expect(remoteRpc.metadataOf(task)).toMatchObject({
        status: "failed",
        exitCode: 2,
        container: { tree: "copy", engine: `${engine.env.DOCKER_HOST} (TLS)` },
      });
      const logs = await remoteRpc.callTool(remotePi, "bg_logs", { taskId: task.id, tail: false });
      expect(logs.text).toContain("from the host\nchanged\n");
      expect(readFileSync(join(project, "input.txt"), "utf8")).toBe("from the host\n");
      expect(await engine.docker.listContainers({ all: true })).toEqual([]);
    }, 120_000);
  },
);
