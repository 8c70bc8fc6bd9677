import {
  describeTaskSupervisorContract,
  type SupervisedScenario,
} from "../../contract-tests/task-supervisor.contract.ts";
import { FakeClock } from "./fake-clock.ts";
import { FakeProcessLauncher, type FakeScript } from "./fake-process-launcher.ts";
import { FakeTaskSupervisor } from "./fake-task-supervisor.ts";
import { InMemoryFileCommitter } from "./in-memory-file-committer.ts";
import { SeededRandomSource } from "./seeded-random-source.ts";

let seed = 1;

describeTaskSupervisorContract("FakeTaskSupervisor on FakeProcessLauncher", async () => {
  const files = new InMemoryFileCommitter();
  await files.ensureDir("/tasks");
  const scenarios = new Map<string, SupervisedScenario>();
  const inner = new FakeProcessLauncher({
    script: (spec): FakeScript => {
      const scenario = spec.command.kind === "shell" ? scenarios.get(spec.command.command) : undefined;
      switch (scenario?.kind) {
        case "print-and-exit":
          return { stdout: [scenario.stdout], stderr: [scenario.stderr], exit: { code: scenario.exitCode } };
        case "print-env":
          return { stdout: [spec.env[scenario.name] ?? ""], exit: { code: 0 } };
        case "die-by-signal":
          return { exit: { signal: "SIGUSR2" } };
        case "detached-child":
          return {
            stdout: [(pids) => `detached ${pids.grandchild}\n`],
            exit: { code: 0 },
            grandchild: { exitAfterMs: scenario.runMs },
          };
        case undefined:
          throw new Error("unscripted launch");
      }
    },
  });
  const supervisor = new FakeTaskSupervisor(new SeededRandomSource(seed++), files, new FakeClock(), inner);
  return {
    supervisor,
    dir: "/tasks",
    command(scenario) {
      const key = `scenario-${scenarios.size}-${scenario.kind}`;
      scenarios.set(key, scenario);
      return { kind: "shell", command: key };
    },
    readFile: async (path) => files.contents(path),
    createFile: async (path) => {
      const created = await files.createExclusive(path);
      if (!created.ok) throw new Error(created.error.message);
      await created.value.close();
    },
    alive: async (pid) => inner.alive(pid),
  };
});
