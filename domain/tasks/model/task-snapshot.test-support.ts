import type { TaskSnapshot, TaskStatus } from "./task-snapshot.ts";

/** A plain shell task with no output, for view tests. */
export function taskSnapshot(id: string, status: TaskStatus, extra: Partial<TaskSnapshot> = {}): TaskSnapshot {
  return {
    schema_version: "pi-background-tasks.task.v1",
    id,
    name: id,
    command: "true",
    status,
    outputPath: `.pi/tasks/x/${id}.output`,
    cwd: "/",
    startTime: 0,
    bytesWritten: 0,
    output: { producedBytes: 0, keptBytes: 0, elidedBytes: 0, capBytes: 1, capAction: "keep_head_and_tail" },
    isAgent: false,
    notified: false,
    notifyOnCompletion: true,
    triggerOnCompletion: true,
    ...extra,
  };
}
