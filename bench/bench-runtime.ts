import { join } from "node:path";
import type { TaskNotification } from "../domain/tasks/model/notification.ts";
import { ok } from "../domain/shared/model/result.ts";
import { TaskRuntime, type TaskRuntimeConfig } from "../domain/tasks/service/task-runtime.ts";
import type { ContainerBackends } from "../ports/container-backend.ts";
import type { TaskSupervisor } from "../ports/task-survival.ts";
import { CryptoRandomSource } from "../adapters/node/crypto-random-source.ts";
import { NodeFileCommitter } from "../adapters/node/node-file-committer.ts";
import { NodeProcessLauncher } from "../adapters/node/node-process-launcher.ts";
import { processIdentity } from "../adapters/node/node-survivor-probe.ts";
import { SystemClock } from "../adapters/node/system-clock.ts";

/** The real task runtime in `dir` (tasks under `dir/tasks`), optionally under a task supervisor (the real one: `new NodeTaskSupervisor()`). */
export function benchRuntime(
  dir: string,
  options: {
    readonly onNotice: (notice: TaskNotification) => void;
    readonly supervisor?: TaskSupervisor;
    readonly containers?: ContainerBackends;
    readonly config?: Partial<TaskRuntimeConfig>;
  },
): TaskRuntime {
  return new TaskRuntime(
    {
      launcher: new NodeProcessLauncher(),
      files: new NodeFileCommitter(),
      clock: new SystemClock(),
      random: new CryptoRandomSource(),
      notifier: {
        deliver: async (n) => {
          options.onNotice(n);
          return ok(undefined);
        },
      },
      warn: (m) => console.error(`warn: ${m}`),
      ...(options.supervisor === undefined
        ? {}
        : { supervisor: options.supervisor, host: processIdentity(process.pid) }),
      ...(options.containers === undefined ? {} : { containers: options.containers }),
    },
    {
      cwd: dir,
      taskDir: join(dir, "tasks"),
      displayDir: "tasks",
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      shell: "/bin/sh",
      outputCapBytes: 1 << 20,
      killGraceMs: 3_000,
      retainTasks: 10_000,
      ...options.config,
    },
  );
}
