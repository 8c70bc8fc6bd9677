import { err, ok, type Result, typedError } from "../../domain/shared/model/result.ts";
import type { ContainerPlacement } from "../../domain/tasks/model/run-request.ts";
import type { ContainerBackendError, ContainerBackends, PreparedContainer } from "../../ports/container-backend.ts";
import type { TaskSupervisor } from "../../ports/task-survival.ts";

/**
 * An engine that holds the images it was given (name → id) and runs every task on one supervisor (a fake one
 * in tests); `reachable: false` is an engine that does not answer.
 */
export class FakeContainerBackends implements ContainerBackends {
  readonly prepared: string[] = [];

  constructor(
    private readonly images: Readonly<Record<string, string>>,
    private readonly supervisor: TaskSupervisor,
    private readonly reachable = true,
  ) {}

  async prepare(
    placement: ContainerPlacement,
    task: { readonly id: string },
  ): Promise<Result<PreparedContainer, ContainerBackendError>> {
    if (!this.reachable)
      return err(typedError("container_engine_unreachable", "no Docker engine answers at fake://engine: start it"));
    const imageId = this.images[placement.image];
    if (imageId === undefined)
      return err(
        typedError(
          "container_image_missing",
          `the engine has no image ${placement.image}: build it or run \`docker pull ${placement.image}\` first`,
        ),
      );
    this.prepared.push(task.id);
    return ok({
      supervisor: this.supervisor,
      facts: { runOn: placement.runOn, image: placement.image, imageId, engine: "fake://engine", tree: "bind" },
    });
  }
}
