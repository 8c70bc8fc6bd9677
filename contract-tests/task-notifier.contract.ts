import { afterEach, describe, expect, it } from "vitest";
import { renderNotification, type TaskNotification } from "../domain/tasks/model/notification.ts";
import type { TaskSnapshot } from "../domain/tasks/model/task-snapshot.ts";
import type { TaskNotifier } from "../ports/task-notifier.ts";

export const COVERS_PORT = "ports/task-notifier.ts";

export interface TaskNotifierSubject {
  readonly notifier: TaskNotifier;
  /**
   * Every notice the host received so far, read back into the port's own shape. Waits until at least
   * `atLeast` arrived (hosts that deliver asynchronously) or a short deadline passed.
   */
  received(atLeast: number): Promise<readonly TaskNotification[]>;
  close?(): Promise<void>;
}

export interface TaskNotifierHosts {
  /** A host that takes every notice. */
  accepting(): Promise<TaskNotifierSubject>;
  /** A host that refuses every notice (closed, throwing, gone). */
  refusing(): Promise<TaskNotifierSubject>;
}

function snapshot(overrides: Partial<TaskSnapshot>): TaskSnapshot {
  return {
    schema_version: "pi-background-tasks.task.v1",
    id: "b0a1b2c3",
    name: "unit tests",
    command: "npm test",
    status: "completed",
    outputPath: ".pi/tasks/s/b0a1b2c3.output",
    cwd: "/work",
    startTime: 1_700_000_000_000,
    endTime: 1_700_000_004_321,
    exitCode: 0,
    pid: 4242,
    bytesWritten: 12,
    output: { producedBytes: 12, keptBytes: 12, elidedBytes: 0, capBytes: 1 << 20, capAction: "keep_head_and_tail" },
    isAgent: false,
    notified: false,
    notifyOnCompletion: true,
    triggerOnCompletion: true,
    ...overrides,
  };
}

const completed = renderNotification(snapshot({}), "all 12 tests passed");
const failed = renderNotification(
  snapshot({
    id: "b9f8e7d6",
    name: 'build <release> & "quotes" — ünïcode 🚀',
    status: "failed",
    exitCode: 2,
    error: "Exited with code 2",
    triggerOnCompletion: false,
  }),
  "error TS2322: <T> & 'x'\n\tsecond line",
);

/** A notifier delivers exactly what it is given, once per call and in order; a refusing host is a typed value. */
export function describeTaskNotifierContract(name: string, hosts: TaskNotifierHosts): void {
  describe(`TaskNotifier contract: ${name}`, () => {
    let open: TaskNotifierSubject[] = [];
    const make = async (kind: keyof TaskNotifierHosts) => {
      const subject = await hosts[kind]();
      open.push(subject);
      return subject;
    };
    afterEach(async () => {
      await Promise.all(open.map((s) => s.close?.()));
      open = [];
    });

    it("delivers exactly the notice it is given: content, snapshot and whether to start a turn", async () => {
      const subject = await make("accepting");
      expect(await subject.notifier.deliver(completed)).toEqual({ ok: true, value: undefined });
      expect(await subject.received(1)).toEqual([completed]);
    });

    it("delivers each notice once, in the order given, keeping markup, quotes and non-ASCII text intact", async () => {
      const subject = await make("accepting");
      const results = [await subject.notifier.deliver(failed), await subject.notifier.deliver(completed)];
      expect(results.every((r) => r.ok)).toBe(true);
      expect(await subject.received(2)).toEqual([failed, completed]);
    });

    it("sends nothing before it is asked to", async () => {
      const subject = await make("accepting");
      expect(await subject.received(0)).toEqual([]);
    });

    it("reports a host that refuses as a typed notify_failed value and never throws", async () => {
      const subject = await make("refusing");
      const outcomes = [await subject.notifier.deliver(completed), await subject.notifier.deliver(failed)];
      for (const outcome of outcomes) {
        expect(outcome.ok).toBe(false);
        if (outcome.ok) continue;
        expect(outcome.error.code).toBe("notify_failed");
        expect(outcome.error.message.length).toBeGreaterThan(0);
      }
    });
  });
}
