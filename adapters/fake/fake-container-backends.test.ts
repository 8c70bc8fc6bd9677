import { describeContainerBackendsContract } from "../../contract-tests/container-backends.contract.ts";
import { FakeClock } from "./fake-clock.ts";
import { FakeContainerBackends } from "./fake-container-backends.ts";
import { FakeProcessLauncher } from "./fake-process-launcher.ts";
import { FakeTaskSupervisor } from "./fake-task-supervisor.ts";
import { InMemoryFileCommitter } from "./in-memory-file-committer.ts";
import { SeededRandomSource } from "./seeded-random-source.ts";

describeContainerBackendsContract("FakeContainerBackends on FakeTaskSupervisor", async () => {
  const files = new InMemoryFileCommitter();
  await files.ensureDir("/tasks");
  const printed = new Map<string, { text: string; code: number }>();
  const launcher = new FakeProcessLauncher({
    script: (spec) => {
      const run = spec.command.kind === "shell" ? printed.get(spec.command.command) : undefined;
      if (run === undefined) throw new Error("unscripted launch");
      return { stdout: [run.text], exit: { code: run.code } };
    },
  });
  const supervisor = new FakeTaskSupervisor(new SeededRandomSource(7), files, new FakeClock(), launcher);
  const backends = new FakeContainerBackends({ "busybox:test": "sha256:fake" }, supervisor, true, files);
  return {
    backends,
    image: "busybox:test",
    missingImage: "no-such:1",
    dir: "/tasks",
    printAndExit(text, code) {
      const key = `print-${printed.size}`;
      printed.set(key, { text, code });
      return { kind: "shell", command: key };
    },
    startOrphan: async (text, code) => {
      const id = `orphan${backends.orphans.size}`;
      backends.orphans.set(id, { tag: "a".repeat(32), log: text, code });
      return { id, tag: "a".repeat(32) };
    },
    readFile: async (path) => files.contents(path),
  };
});
