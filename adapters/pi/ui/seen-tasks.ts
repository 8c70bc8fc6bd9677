import type { TaskSnapshot } from "../../../domain/tasks/model/task-snapshot.ts";

/** Which finished tasks the user has looked at (opened in the dock or cleared with /bg-clear), per session. */
export class SeenTasks {
  private readonly ids = new Set<string>();
  private readonly listeners = new Set<() => void>();

  isSeen(id: string): boolean {
    return this.ids.has(id);
  }

  /** Marks a task seen once it is finished: a running task has no outcome to see yet. */
  markSeen(task: TaskSnapshot): void {
    if (task.status === "running" || this.ids.has(task.id)) return;
    this.ids.add(task.id);
    this.changed();
  }

  /** Marks every finished task seen; returns how many were not seen before. */
  markFinished(tasks: readonly TaskSnapshot[]): number {
    const fresh = tasks.filter((t) => t.status !== "running" && !this.ids.has(t.id));
    for (const task of fresh) this.ids.add(task.id);
    if (fresh.length > 0) this.changed();
    return fresh.length;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
