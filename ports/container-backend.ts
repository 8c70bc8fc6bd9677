import type { Result, TypedError } from "../domain/shared/model/result.ts";
import type { ContainerPlacement } from "../domain/tasks/model/run-request.ts";
import type { ContainerFacts } from "../domain/tasks/model/task-snapshot.ts";
import type { HostIdentity, TaskSupervisor } from "./task-survival.ts";

export type ContainerBackendError = TypedError<
  "container_engine_unreachable" | "container_image_missing" | "container_backend_unavailable"
>;

/** One task, ready to launch: a supervisor for exactly this task, and the facts to record before it starts. */
export interface PreparedContainer {
  readonly supervisor: TaskSupervisor;
  readonly facts: ContainerFacts;
}

/**
 * The container engines tasks can run on. `prepare` checks everything that can be checked before anything is
 * created (the engine answers, the image is there) and returns a supervisor whose launch starts the task's
 * container, labelled with the task and its host, running as the user, without a network unless configured.
 */
export interface ContainerBackends {
  prepare(
    placement: ContainerPlacement,
    task: { readonly id: string; readonly host: HostIdentity | undefined },
  ): Promise<Result<PreparedContainer, ContainerBackendError>>;
}
