import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeHostRunPathsContract } from "../../contract-tests/host-run-paths.ts";
import { describeTaskSupervisorContract, shellScenario } from "../../contract-tests/task-supervisor.contract.ts";
import { outputToEnd } from "../../contract-tests/process-output.ts";
import { type RemoteEngine, startRemoteEngine } from "../fake/remote-engine.test-support.ts";
import { buildTaskImage, requireDockerEngine, TASK_IMAGE } from "../fake/task-image.test-support.ts";
import { ok } from "../../domain/shared/model/result.ts";
import { CONTAINER_SETTINGS_DEFAULTS } from "../../domain/tasks/model/container-settings.ts";
import { DockerContainerBackends } from "./docker-container-backends.ts";
import { TASK_LABEL } from "./docker-task-supervisor.ts";
import type { TaskSupervisor } from "../../ports/task-survival.ts";

const FILE = "adapters/node/docker-remote-engine.docker.test.ts";
const engineAvailable = await requireDockerEngine(FILE);
const HOST = { pid: process.pid, startedAt: "test" };
const DEFAULTS = async () => ok(CONTAINER_SETTINGS_DEFAULTS);
const POLICY = { afterShellExit: { remaining: "stop", graceMs: 500 }, killGraceMs: 1_000 } as const;
let remote: RemoteEngine | undefined;

beforeAll(async () => {
  if (!engineAvailable) return;
  await buildTaskImage();
  remote = await startRemoteEngine();
}, 180_000);
afterAll(async () => remote?.stop(), 30_000);

/** The product's own client, made from DOCKER_HOST, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH as a user sets them. */
async function fromEnvironment() {
  const saved = { ...process.env };
  Object.assign(process.env, remote?.env);
  try {
    const { default: Docker } = await import("dockerode");
    return new Docker();
  } finally {
    for (const name of Object.keys(remote?.env ?? {})) if (saved[name] === undefined) delete process.env[name];
  }
}

let taskNumber = 0;
async function prepared(runOn: "docker" | "swarm" = "docker", user = "0:0") {
  const id = `remotetest${process.pid}x${++taskNumber}`;
  const backends = new DockerContainerBackends(DEFAULTS, fromEnvironment, user);
  return { id, ready: await backends.prepare({ runOn, image: TASK_IMAGE }, { id, host: HOST }) };
}

/** Runs `command` as a task of `supervisor` in `dir` to its end; its output. */
async function run(supervisor: TaskSupervisor, command: string, dir: string): Promise<string> {
  const files = { exitPath: join(dir, "t.exit.json"), spillPath: join(dir, "t.spill"), spillCapBytes: 1 << 20 };
  const launched = await supervisor.launch(supervisor.wrap({ kind: "shell", command }, {}, files, POLICY), dir);
  if (!launched.ok) throw new Error(launched.error.message);
  return outputToEnd(launched.value);
}

describe.runIf(engineAvailable)(
  "a remote Docker engine: DOCKER_HOST=tcp://… with TLS, a second engine on loopback",
  () => {
    afterAll(async () => {
      const left = (await remote?.docker.listContainers({ all: true, filters: { label: [TASK_LABEL] } })) ?? [];
      expect(left.filter((c) => c.Labels[TASK_LABEL]?.startsWith(`remotetest${process.pid}x`))).toEqual([]);
    });

    describeTaskSupervisorContract(
      "DockerTaskSupervisor on a remote engine (the project tree copied in)",
      async () => {
        const { ready } = await prepared();
        if (!ready.ok) throw new Error(ready.error.message);
        return {
          supervisor: ready.value.supervisor,
          dir: mkdtempSync(join(tmpdir(), "remote-task-")),
          command: (scenario) => ({ kind: "shell", command: shellScenario(scenario) }),
          readFile: (path) => readFile(path).catch(() => undefined),
          createFile: (path) => writeFile(path, ""),
          alive: async () => false,
        };
      },
      "container",
    );

    it("the task gets a copy of the tree at the same path, without .pi/, owned by the task's user; the host's tree is untouched", async () => {
      const { ready } = await prepared("docker", "1000:1000");
      if (!ready.ok) throw new Error(ready.error.message);
      expect(ready.value.facts).toMatchObject({
        tree: "copy",
        engine: `${remote?.env.DOCKER_HOST} (TLS)`,
        network: false,
      });
      const dir = mkdtempSync(join(tmpdir(), "remote-tree-"));
      writeFileSync(join(dir, "input.txt"), "from the host\n");
      mkdirSync(join(dir, "src"));
      writeFileSync(join(dir, "src", "a.c"), "int main;\n");
      mkdirSync(join(dir, ".pi", "tasks"), { recursive: true });
      writeFileSync(join(dir, ".pi", "tasks", "other.output"), "another task's output\n");
      const command =
        "pwd; cat input.txt src/a.c; ls -a .pi 2>&1 | head -1; stat -c %u src/a.c; echo changed > input.txt && echo wrote";
      const out = await run(ready.value.supervisor, command, dir);
      expect(out).toMatch(
        new RegExp(`^${dir}\nfrom the host\nint main;\nls: \\.pi: No such file or directory\n1000\nwrote\n$`),
      );
      expect(await readFile(join(dir, "input.txt"), "utf8")).toBe("from the host\n");
      expect(readdirSync(dir).sort()).toEqual([".pi", "input.txt", "src", "t.exit.json"]);
    });

    describeHostRunPathsContract(async (command, dir) => {
      const { ready } = await prepared();
      if (!ready.ok) throw new Error(ready.error.message);
      return run(ready.value.supervisor, command, dir);
    }, "copy");

    it("a Swarm job on a remote engine is refused, typed and naming what to use, before anything is created", async () => {
      const { ready } = await prepared("swarm");
      expect(ready.ok).toBe(false);
      if (ready.ok) return;
      expect(ready.error.code).toBe("container_backend_unavailable");
      expect(ready.error.message).toContain('use runOn "docker"');
      expect(await remote?.docker.listContainers({ all: true })).toEqual([]); // and it has no swarm to make one in
    });
  },
);
