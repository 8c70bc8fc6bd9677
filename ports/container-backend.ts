import type { Result, TypedError } from "../domain/shared/model/result.ts";
import type { ContainerPlacement } from "../domain/tasks/model/run-request.ts";
import type { ContainerFacts } from "../domain/tasks/model/task-snapshot.ts";
import type { HostIdentity, SupervisionFiles, TaskSupervisor } from "./task-survival.ts";

export type ContainerBackendError = TypedError<
  | "container_engine_unreachable"
  | "container_image_missing"
  | "container_backend_unavailable"
  | "container_config_invalid"
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
/** A container task whose host ended while it ran, as the task's files describe it. */
export interface OrphanContainer {
  readonly id: string;
  /** The task's tag: only a container labelled with it is this task's. */
  readonly processTag: string;
  readonly files: SupervisionFiles;
  /** Bytes of the container's log the ended host already has in order in its output file. */
  readonly skipBytes: number;
}

/**
 * The container of an orphaned task. `running`/`ended`: it was found; `settled` resolves once it has ended,
 * what the host never read (the log after `skipBytes`) is in the spill file up to its cap, the engine's exit
 * code is in the exit record, and the container is removed. `missing`: no such container (removed by hand, or
 * never created); `unreachable`: the engine does not answer, so nothing can be said.
 */
export type AdoptedContainer =
  | {
      readonly state: "running" | "ended";
      readonly settled: Promise<void>;
      /** SIGTERM to the container, SIGKILL after the grace; resolves once it has ended. */
      stop(graceMs: number): Promise<void>;
    }
  | { readonly state: "missing" | "unreachable"; readonly problem: string };

export interface ContainerBackends {
  /** Takes over the container of a task whose host ended: see AdoptedContainer. */
  adoptOrphan(orphan: OrphanContainer): Promise<AdoptedContainer>;
  prepare(
    placement: ContainerPlacement,
    task: { readonly id: string; readonly host: HostIdentity | undefined },
  ): Promise<Result<PreparedContainer, ContainerBackendError>>;
}
