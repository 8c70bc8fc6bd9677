import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, statSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeContainerBackendsContract } from "../../contract-tests/container-backends.contract.ts";
import { describeHostRunPathsContract } from "../../contract-tests/host-run-paths.ts";
import { describeTaskSupervisorContract, shellScenario } from "../../contract-tests/task-supervisor.contract.ts";
import { drain, outputToEnd } from "../../contract-tests/process-output.ts";
import { buildTaskImage, requireDockerEngine, TASK_IMAGE } from "../fake/task-image.test-support.ts";
import { ok } from "../../domain/shared/model/result.ts";
import { CONTAINER_SETTINGS_DEFAULTS } from "../../domain/tasks/model/container-settings.ts";
import { DockerContainerBackends } from "./docker-container-backends.ts";
import { TAG_LABEL, TASK_LABEL } from "./docker-task-supervisor.ts";

const FILE = "adapters/node/docker-task-supervisor.docker.test.ts";
const engineAvailable = await requireDockerEngine(FILE);
const docker = new Docker();
const HOST = { pid: process.pid, startedAt: "test" };
const DEFAULTS = async () => ok(CONTAINER_SETTINGS_DEFAULTS);
const POLICY = { afterShellExit: { remaining: "stop", graceMs: 500 }, killGraceMs: 1_000 } as const;

beforeAll(async () => {
  if (engineAvailable) await buildTaskImage();
}, 120_000);

let taskNumber = 0;
/** A supervisor for one fresh task on the local engine. */
async function prepared(backends = new DockerContainerBackends(DEFAULTS)) {
  const id = `dockertest${process.pid}x${++taskNumber}`;
  const ready = await backends.prepare({ runOn: "docker", image: TASK_IMAGE }, { id, host: HOST });
  if (!ready.ok) throw new Error(ready.error.message);
  return { id, ...ready.value };
}

async function containersOf(taskId: string): Promise<string[]> {
  const found = await docker.listContainers({ all: true, filters: { label: [`${TASK_LABEL}=${taskId}`] } });
  return found.map((c) => c.Id);
}

/** Runs `command` in a fresh task container in `dir`; the process, and its task id. */
async function start(command: string, dir: string, backends?: DockerContainerBackends) {
  const { id, supervisor } = await prepared(backends);
  const files = { exitPath: join(dir, `${id}.exit.json`), spillPath: join(dir, `${id}.spill`), spillCapBytes: 1 << 20 };
  const wrapped = supervisor.wrap({ kind: "shell", command }, {}, files, POLICY);
  const launched = await supervisor.launch(wrapped, dir);
  if (!launched.ok) throw new Error(launched.error.message);
  return { id, proc: launched.value, files };
}

describe.runIf(engineAvailable)("Docker container tasks", () => {
  afterAll(async () => {
    // Every container this file made was released (or taken over): none is left on the engine.
    const left = await docker.listContainers({ all: true, filters: { label: [TASK_LABEL] } });
    expect(left.filter((c) => c.Labels[TASK_LABEL]?.startsWith(`dockertest${process.pid}x`))).toEqual([]);
  });

  describeTaskSupervisorContract(
    "DockerTaskSupervisor (one container per task on the local engine)",
    async () => ({
      supervisor: (await prepared()).supervisor,
      dir: mkdtempSync(join(tmpdir(), "docker-task-")),
      command: (scenario) => ({ kind: "shell", command: shellScenario(scenario) }),
      readFile: (path) => readFile(path).catch(() => undefined),
      createFile: (path) => writeFile(path, ""),
      alive: async () => false,
    }),
    "container",
  );

  describeContainerBackendsContract("DockerContainerBackends on the local engine", async () => ({
    backends: new DockerContainerBackends(DEFAULTS),
    image: TASK_IMAGE,
    missingImage: "pi-bg-no-such-image:1",
    dir: mkdtempSync(join(tmpdir(), "docker-task-")),
    printAndExit: (text, code) => ({ kind: "shell", command: `printf '%s' '${text}'; exit ${code}` }),
    startOrphan: async (text, code) => {
      const { id, supervisor } = await prepared();
      const dir = mkdtempSync(join(tmpdir(), "docker-orphan-"));
      const files = { exitPath: join(dir, "host.exit.json"), spillPath: join(dir, "host.spill"), spillCapBytes: 100 };
      const command = `printf '%s' '${text}'; sleep 0.5; exit ${code}`;
      const wrapped = supervisor.wrap({ kind: "shell", command }, {}, files, POLICY);
      const launched = await supervisor.launch(wrapped, dir);
      if (!launched.ok) throw new Error(launched.error.message);
      void drain(launched.value.stdout); // the host that started it reads on, then is gone: it never releases it
      return { id, tag: wrapped.processTag };
    },
    readFile: (path) => readFile(path).catch(() => undefined),
  }));

  it("runs as the configured user in the project directory, without a network, and passes large output exactly", async () => {
    const dir = mkdtempSync(join(tmpdir(), "docker-task-"));
    chmodSync(dir, 0o777); // another user writes here
    const backends = new DockerContainerBackends(DEFAULTS, undefined, "4321:4321");
    const { proc } = await start(
      "id -u; pwd; ls /sys/class/net; head -c 3000000 /dev/zero | tr '\\0' 'z'; touch made-here; echo done >&2",
      dir,
      backends,
    );
    const [stdout, stderr, exit] = await Promise.all([drain(proc.stdout), drain(proc.stderr), proc.exited]);
    const text = Buffer.from(stdout).toString("utf8"); // both streams, in the engine's log order
    const head = `4321\n${dir}\nlo\n`; // the directory's random name may hold a "z" too
    expect(text.slice(0, head.length)).toBe(head);
    expect(text.replace("done\n", "").slice(head.length)).toBe("z".repeat(3_000_000));
    expect(text.split("done\n")).toHaveLength(2);
    expect(stderr).toHaveLength(0);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(statSync(join(dir, "made-here")).uid).toBe(4321);
    await proc.release?.();
  });

  describeHostRunPathsContract(async (command, dir) => outputToEnd((await start(command, dir)).proc));

  it("an orphan whose container was created but never started (its host died starting it): no exit code is made up, and it is removed", async () => {
    const id = `dockertest${process.pid}x${++taskNumber}`;
    const tag = "c".repeat(32);
    const created = await docker.createContainer({
      Image: TASK_IMAGE,
      Cmd: ["true"],
      Labels: { [TASK_LABEL]: id, [TAG_LABEL]: tag },
    });
    const dir = mkdtempSync(join(tmpdir(), "docker-orphan-"));
    const files = { exitPath: join(dir, "e.exit.json"), spillPath: join(dir, "e.spill"), spillCapBytes: 100 };
    const adopted = await new DockerContainerBackends(DEFAULTS).adoptOrphan({
      id,
      processTag: tag,
      files,
      skipBytes: 0,
    });
    expect(adopted).toMatchObject({ state: "missing", problem: expect.stringContaining("never started") });
    expect(existsSync(files.exitPath)).toBe(false);
    await expect(created.inspect()).rejects.toThrow(/no such container/i);
  });

  it("an image's ENTRYPOINT does not wrap the command: the shell runs it and its exit code is the task's", async () => {
    const image = "pi-bg-entrypoint-test:1";
    execFileSync("docker", ["build", "-q", "-t", image, "-"], {
      input: `FROM ${TASK_IMAGE}\nENTRYPOINT ["/bin/echo", "ENTRYPOINT-RAN"]\n`,
    });
    const ready = await new DockerContainerBackends(DEFAULTS).prepare(
      { runOn: "docker", image },
      { id: `dockertest${process.pid}x${++taskNumber}`, host: HOST },
    );
    if (!ready.ok) throw new Error(ready.error.message);
    const dir = mkdtempSync(join(tmpdir(), "docker-task-"));
    const files = { exitPath: join(dir, "e.exit.json"), spillPath: join(dir, "e.spill"), spillCapBytes: 100 };
    const wrapped = ready.value.supervisor.wrap({ kind: "shell", command: "echo hello; exit 5" }, {}, files, POLICY);
    const launched = await ready.value.supervisor.launch(wrapped, dir);
    if (!launched.ok) throw new Error(launched.error.message);
    const [stdout, , exit] = await Promise.all([
      drain(launched.value.stdout),
      drain(launched.value.stderr),
      launched.value.exited,
    ]);
    await launched.value.release?.();
    expect({ out: Buffer.from(stdout).toString(), exit }).toEqual({ out: "hello\n", exit: { code: 5, signal: null } });
  });

  it("the configured limits and network reach the container", async () => {
    const dir = mkdtempSync(join(tmpdir(), "docker-task-"));
    const settings = { pidsLimit: 50, network: true, cpus: 0.5, memoryBytes: 64 * 1024 * 1024 };
    const { id, proc } = await start(
      "ls /sys/class/net; sleep 1",
      dir,
      new DockerContainerBackends(async () => ok(settings)),
    );
    const outputs = Promise.all([drain(proc.stdout), drain(proc.stderr)]);
    const [entry] = await containersOf(id);
    const info = await docker.getContainer(entry ?? "").inspect();
    expect(info.HostConfig).toMatchObject({
      PidsLimit: 50,
      NanoCpus: 500_000_000,
      Memory: 64 * 1024 * 1024,
      NetworkMode: "bridge",
    });
    await proc.exited;
    expect(Buffer.from((await outputs)[0]).toString()).toContain("eth0");
    await proc.release?.();
  });

  it("a kill stops the container (SIGTERM, SIGKILL after the grace), and release removes it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "docker-task-"));
    const { id, proc } = await start("trap '' TERM; echo ready; while :; do sleep 1; done", dir);
    const outputs = Promise.all([drain(proc.stdout), drain(proc.stderr)]);
    await proc.killGroup({ graceMs: 300 });
    const exit = await proc.exited;
    await outputs;
    expect(exit.code).toBe(128 + 9); // it ignored SIGTERM, so the grace ran out
    expect(await containersOf(id)).toHaveLength(1); // kept until the host's record of its end is durable
    await proc.release?.();
    expect(await containersOf(id)).toEqual([]);
  });

  it("an engine that does not answer is refused, naming how to start one", async () => {
    const backends = new DockerContainerBackends(
      DEFAULTS,
      async () => new Docker({ socketPath: "/nonexistent/docker.sock" }),
    );
    const refused = await backends.prepare({ runOn: "docker", image: TASK_IMAGE }, { id: "x", host: HOST });
    expect(refused.ok || refused.error).toMatchObject({
      code: "container_engine_unreachable",
      message: expect.stringContaining("start it"),
    });
  });
});
