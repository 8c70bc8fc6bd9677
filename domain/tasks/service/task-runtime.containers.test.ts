import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeContainerBackends } from "../../../adapters/fake/fake-container-backends.ts";
import { FakeProcessLauncher } from "../../../adapters/fake/fake-process-launcher.ts";
import { FakeTaskSupervisor } from "../../../adapters/fake/fake-task-supervisor.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { ok } from "../../shared/model/result.ts";
import { launchReceipt } from "../model/launch-receipt.ts";
import { normalizeRunArguments, type RunRequest } from "../model/run-request.ts";
import { TaskRuntime } from "./task-runtime.ts";

const DIR = "/w/.pi/tasks/s-1";

function request(overrides: Record<string, unknown>): RunRequest {
  const r = normalizeRunArguments({ name: "t", command: "make test", isAgent: false, ...overrides });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function setup(options: { backends?: false; reachable?: boolean } = {}) {
  const clock = new FakeClock();
  const files = new InMemoryFileCommitter();
  const hostLauncher = new FakeProcessLauncher({ clock, script: () => ({ stdout: ["on the host\n"] }) });
  const containerLauncher = new FakeProcessLauncher({
    clock,
    script: (spec) => ({ stdout: [`env ${Object.keys(spec.env).join(",")}\n`], exit: { code: 0 } }),
  });
  const inContainer = new FakeTaskSupervisor(new SeededRandomSource(3), files, clock, containerLauncher);
  const containers = new FakeContainerBackends({ "node:22": "sha256:abc" }, inContainer, options.reachable ?? true);
  const runtime = new TaskRuntime(
    {
      launcher: hostLauncher,
      files,
      clock,
      random: new SeededRandomSource(5),
      notifier: { deliver: async () => ok(undefined) },
      warn: () => undefined,
      host: { pid: 4242, startedAt: "boot/4242" },
      ...(options.backends === false ? {} : { containers }),
    },
    {
      cwd: "/w",
      taskDir: DIR,
      displayDir: ".pi/tasks/s-1",
      env: { PATH: "/bin", SECRET_TOKEN: "from-the-user" },
      outputCapBytes: 1 << 20,
      killGraceMs: 3_000,
      retainTasks: 100,
    },
  );
  return { files, runtime, hostLauncher, containerLauncher, containers, inContainer, clock };
}

/** A container task whose launch is held until `open()`: the task runs until stopped once it starts. */
async function startHeld() {
  const world = setup();
  world.containerLauncher.on(() => true, { stdout: ["runs until stopped\n"] });
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const launch = world.inContainer.launch.bind(world.inContainer);
  world.inContainer.launch = async (...args) => gate.then(() => launch(...args));
  const starting = world.runtime.start(request({ runOn: "docker", image: "node:22" }));
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  return { ...world, open, starting };
}

describe("bg_run with runOn docker", () => {
  it("runs the command in the prepared container, without the host's environment, and records where", async () => {
    const { runtime, hostLauncher, containerLauncher } = setup();
    const started = await runtime.start(request({ runOn: "docker", image: "node:22" }));
    if (!started.ok) throw new Error(started.error.message);
    expect(hostLauncher.launches).toEqual([]);
    expect(containerLauncher.launches).toHaveLength(1);
    expect(Object.keys(containerLauncher.launches[0]?.env ?? {})).not.toContain("SECRET_TOKEN");
    expect(started.value.container).toEqual({
      runOn: "docker",
      image: "node:22",
      imageId: "sha256:abc",
      engine: "fake://engine",
      tree: "bind",
    });
    expect(launchReceipt(started.value)).toContain("Runs in: a container of image node:22 (sha256:abc)");
    const ended = await runtime.waitForTerminal(started.value.id);
    expect(ended.ok && ended.value).toMatchObject({ status: "completed", container: { image: "node:22" } });
  });

  it.each([
    ["an image the engine lacks", { image: "nope:1" }, {}, "container_image_missing"],
    ["no image given and none configured", {}, {}, "container_image_missing"],
    ["an engine that does not answer", { image: "node:22" }, { reachable: false }, "container_engine_unreachable"],
    [
      "a host without container backends",
      { image: "node:22" },
      { backends: false as const },
      "container_backend_unavailable",
    ],
  ])("%s: a typed error, and nothing is created", async (_, args, options, code) => {
    const { runtime, files, containerLauncher } = setup(options);
    const refused = await runtime.start(request({ runOn: "docker", ...args }));
    expect(refused.ok || refused.error).toMatchObject({
      code,
      message: expect.stringContaining("no task was started"),
    });
    expect(files.listDir(DIR)).toBeUndefined();
    expect(containerLauncher.launches).toEqual([]);
    expect(runtime.list()).toEqual([]);
  });
});

describe("bg_run arguments for container tasks", () => {
  it.each([
    [{ image: "node:22" }, "'image' is only for runOn"],
    [{ runOn: "docker", image: "node:22", isAgent: true }, "cannot run in a container"],
    [{ runOn: "docker", image: "node:22", surviveReload: true }, "not available for container tasks"],
    [{ runOn: "docker", image: "-rm node" }, "image"],
    [{ runOn: "kubernetes", image: "node:22" }, "runOn"],
  ])("%j is refused, naming the fix", (args, problem) => {
    const r = normalizeRunArguments({ command: "make", isAgent: false, ...args });
    expect(r.ok || r.error).toMatchObject({ code: "invalid_arguments", message: expect.stringContaining(problem) });
  });

  it("runOn host is the default and adds nothing", () => {
    const r = normalizeRunArguments({ command: "make", isAgent: false, runOn: "host" });
    expect(r.ok && r.value).not.toHaveProperty("runOn");
  });

  it("a shutdown while a container is starting waits for the start, then stops that task too", async () => {
    const { runtime, open, starting } = await startHeld();
    const stopping = runtime.shutdown();
    open();
    const [started] = await Promise.all([starting, stopping]);
    expect(started.ok).toBe(true);
    expect(runtime.list().map((t) => t.status)).toEqual(["killed"]);
  });

  it("a start that outlasts the shutdown's wait (an engine that stalls) does not hold the exit; its task is ended once it starts", async () => {
    const { runtime, open, starting, clock } = await startHeld();
    let stopped = false;
    const stopping = runtime.shutdown().then(() => (stopped = true));
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(stopped).toBe(false); // waiting for the start
    clock.advance(3_000 + 10_000);
    await stopping;
    open();
    const started = await starting;
    expect(started.ok).toBe(true);
    await expect.poll(() => runtime.list().map((t) => t.status)).toEqual(["killed"]);
  });
});
