import { mkdtempSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeHostRunPathsContract } from "../../contract-tests/host-run-paths.ts";
import { describeTaskSupervisorContract, shellScenario } from "../../contract-tests/task-supervisor.contract.ts";
import { drain, outputToEnd } from "../../contract-tests/process-output.ts";
import { ok } from "../../domain/shared/model/result.ts";
import { CONTAINER_SETTINGS_DEFAULTS } from "../../domain/tasks/model/container-settings.ts";
import { buildTaskImage, requireSwarm, TASK_IMAGE } from "../fake/task-image.test-support.ts";
import { DockerContainerBackends } from "./docker-container-backends.ts";
import { TASK_LABEL } from "./docker-task-supervisor.ts";
import { noEgressNetwork } from "./swarm-node.ts";

const FILE = "adapters/node/swarm-task-supervisor.docker.test.ts";
const swarmAvailable = await requireSwarm(FILE);
const docker = new Docker();
const HOST = { pid: process.pid, startedAt: "test" };
const POLICY = { afterShellExit: { remaining: "stop", graceMs: 500 }, killGraceMs: 1_000 } as const;
const backends = new DockerContainerBackends(async () => ok(CONTAINER_SETTINGS_DEFAULTS));

beforeAll(async () => {
  if (swarmAvailable) await buildTaskImage();
}, 120_000);

let taskNumber = 0;
async function prepared(from = backends) {
  const id = `swarmtest${process.pid}x${++taskNumber}`;
  const ready = await from.prepare({ runOn: "swarm", image: TASK_IMAGE }, { id, host: HOST });
  if (!ready.ok) throw new Error(ready.error.message);
  return { id, ...ready.value };
}

const servicesOf = (taskId: string) => docker.listServices({ filters: { label: [`${TASK_LABEL}=${taskId}`] } });

async function launch(command: string, dir: string, from = backends) {
  const { id, supervisor, facts } = await prepared(from);
  const files = { exitPath: join(dir, "t.exit.json"), spillPath: join(dir, "t.spill"), spillCapBytes: 1 << 20 };
  const launched = await supervisor.launch(supervisor.wrap({ kind: "shell", command }, {}, files, POLICY), dir);
  return { id, launched, facts };
}

async function start(command: string, dir = mkdtempSync(join(tmpdir(), "swarm-task-")), from = backends) {
  const { id, launched, facts } = await launch(command, dir, from);
  if (!launched.ok) throw new Error(launched.error.message);
  return { id, proc: launched.value, facts, dir };
}

const constrained = (swarmConstraints: string[]) =>
  new DockerContainerBackends(async () => ok({ ...CONTAINER_SETTINGS_DEFAULTS, swarmConstraints }));

describe.runIf(swarmAvailable)("Swarm job tasks", () => {
  afterAll(async () => {
    // Every job this file made was released: no service and no container of it is left.
    const mine = (labels: Record<string, string> | undefined) =>
      labels?.[TASK_LABEL]?.startsWith(`swarmtest${process.pid}x`);
    const services = await docker.listServices({ filters: { label: [TASK_LABEL] } });
    const containers = await docker.listContainers({ all: true, filters: { label: [TASK_LABEL] } });
    expect(services.filter((x) => mine(x.Spec?.Labels))).toEqual([]);
    expect(containers.filter((c) => mine(c.Labels))).toEqual([]);
  });

  describeTaskSupervisorContract(
    "Swarm replicated-job, one per task, on this engine's node",
    async () => ({
      supervisor: (await prepared()).supervisor,
      dir: mkdtempSync(join(tmpdir(), "swarm-task-")),
      command: (scenario) => ({ kind: "shell", command: shellScenario(scenario) }),
      readFile: (path) => readFile(path).catch(() => undefined),
      createFile: (path) => writeFile(path, ""),
      alive: async () => false,
    }),
    "container",
  );

  describeHostRunPathsContract(async (command, dir) => outputToEnd((await start(command, dir)).proc));

  it("a job without a network has an address on the internal overlay and no route out; released, its service is gone", async () => {
    const { id, proc, facts, dir } = await start("pwd; cat /proc/net/route | cut -f2 | tail -n +2; exit 3");
    expect(facts).toMatchObject({ runOn: "swarm", image: TASK_IMAGE });
    const [stdout, , exit] = await Promise.all([drain(proc.stdout), drain(proc.stderr), proc.exited]);
    const lines = Buffer.from(stdout).toString().trim().split("\n");
    expect(lines[0]).toBe(dir);
    expect(lines.slice(1)).not.toContain("00000000"); // no default route
    expect(lines.slice(1).length).toBeGreaterThan(0);
    expect(exit).toEqual({ code: 3, signal: null });
    expect(await servicesOf(id)).toHaveLength(1);
    await proc.release?.();
    expect(await servicesOf(id)).toEqual([]);
  });

  it("placement constraints from the settings: one this node meets runs; one it does not is a launch error at once, nothing left", async () => {
    const dir = mkdtempSync(join(tmpdir(), "swarm-task-"));
    const met = await start("echo placed", dir, constrained(["node.role==manager"]));
    const spec = await docker.getService((await servicesOf(met.id))[0]?.ID ?? "").inspect();
    expect(spec.Spec.TaskTemplate.Placement.Constraints).toContain("node.role==manager");
    await Promise.all([drain(met.proc.stdout), met.proc.exited]);
    await met.proc.release?.();
    const unmet = await launch("echo never", dir, constrained(["node.labels.pi-bg-test==absent"]));
    expect(unmet.launched.ok || unmet.launched.error.message).toMatch(/no suitable node/);
    expect(await servicesOf(unmet.id)).toEqual([]);
  });

  it("a network of that name that is not internal is never joined: a typed refusal naming how to remove it", async () => {
    const name = `pi-bg-test-open-${process.pid}`;
    const open = await docker.createNetwork({ Name: name, Driver: "overlay", Internal: false });
    try {
      const joined = await noEgressNetwork(docker, name);
      expect(joined.ok || joined.error).toMatch(/is not an internal overlay network.*docker network rm/);
    } finally {
      await open.remove();
    }
  });

  it("a kill stops the job's container; released, nothing of it is left", async () => {
    const { id, proc } = await start("trap '' TERM; echo ready; while :; do sleep 1; done");
    const outputs = Promise.all([drain(proc.stdout), drain(proc.stderr)]);
    await proc.killGroup({ graceMs: 300 });
    expect((await proc.exited).code).toBe(128 + 9);
    await outputs;
    await proc.release?.();
    expect(await servicesOf(id)).toEqual([]);
    await expect
      .poll(
        async () => (await docker.listContainers({ all: true, filters: { label: [`${TASK_LABEL}=${id}`] } })).length,
        { timeout: 10_000 },
      )
      .toBe(0);
  });
});
