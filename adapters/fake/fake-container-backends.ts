import { err, ok, type Result, typedError } from "../../domain/shared/model/result.ts";
import type { ContainerPlacement } from "../../domain/tasks/model/run-request.ts";
import { EXIT_RECORD_SCHEMA } from "../../domain/tasks/model/exit-record.ts";
import type {
  AdoptedContainer,
  ContainerBackendError,
  ContainerBackends,
  OrphanContainer,
  PreparedContainer,
} from "../../ports/container-backend.ts";
import type { FileCommitter } from "../../ports/file-committer.ts";
import type { TaskSupervisor } from "../../ports/task-survival.ts";

/** A container left by an ended host: its whole log, and its exit code once it has ended. */
export interface FakeOrphan {
  readonly tag: string;
  readonly log: string;
  /** Undefined while it runs; `end` ends it. */
  code?: number;
}

/**
 * An engine that holds the images it was given (name → id) and runs every task on one supervisor (a fake one
 * in tests); `reachable: false` is an engine that does not answer.
 */
export class FakeContainerBackends implements ContainerBackends {
  readonly prepared: string[] = [];
  /** Containers of ended hosts, by task id; `adoptOrphan` removes them once settled. */
  readonly orphans = new Map<string, FakeOrphan>();
  readonly #ended = new Map<string, () => void>();

  constructor(
    private readonly images: Readonly<Record<string, string>>,
    private readonly supervisor: TaskSupervisor,
    private readonly reachable = true,
    private readonly files?: FileCommitter,
  ) {}

  /** Ends an orphan's container with `code`. */
  end(id: string, code: number): void {
    const orphan = this.orphans.get(id);
    if (orphan === undefined) return;
    orphan.code = code;
    this.#ended.get(id)?.();
  }

  async adoptOrphan(o: OrphanContainer): Promise<AdoptedContainer> {
    if (!this.reachable) return { state: "unreachable", problem: "no Docker engine answers at fake://engine" };
    const orphan = this.orphans.get(o.id);
    if (orphan === undefined || orphan.tag !== o.processTag)
      return { state: "missing", problem: `no container labelled with task ${o.id}` };
    const state = orphan.code === undefined ? "running" : "ended";
    const ended = new Promise<void>((resolve) =>
      orphan.code === undefined ? this.#ended.set(o.id, resolve) : resolve(),
    );
    return {
      state,
      settled: ended.then(() => this.#settle(o, orphan)),
      stop: async () => this.end(o.id, 128 + 15),
    };
  }

  async #settle(o: OrphanContainer, orphan: FakeOrphan): Promise<void> {
    const rest = new TextEncoder().encode(orphan.log).subarray(o.skipBytes);
    const kept = rest.subarray(0, o.files.spillCapBytes);
    if (kept.length > 0) {
      const file = await this.files?.createExclusive(o.files.spillPath);
      if (file?.ok) {
        await file.value.write(0, kept);
        await file.value.sync();
        await file.value.close();
      }
    }
    const record = {
      schema_version: EXIT_RECORD_SCHEMA,
      code: orphan.code ?? null,
      signal: null,
      endedAt: 0,
      hostGone: true,
      spilledBytes: kept.length,
      lostOutputBytes: rest.length - kept.length,
    };
    await this.files?.replaceAtomic(o.files.exitPath, new TextEncoder().encode(`${JSON.stringify(record)}\n`));
    this.orphans.delete(o.id);
  }

  async prepare(
    placement: ContainerPlacement,
    task: { readonly id: string },
  ): Promise<Result<PreparedContainer, ContainerBackendError>> {
    if (!this.reachable)
      return err(typedError("container_engine_unreachable", "no Docker engine answers at fake://engine: start it"));
    const image = placement.image;
    const imageId = image === undefined ? undefined : this.images[image];
    if (image === undefined || imageId === undefined)
      return err(
        typedError(
          "container_image_missing",
          `the engine has no image ${image ?? "(none given, none configured)"}: build it or run \`docker pull ${image}\` first`,
        ),
      );
    this.prepared.push(task.id);
    return ok({
      supervisor: this.supervisor,
      facts: { runOn: placement.runOn, image, imageId, engine: "fake://engine", tree: "bind" },
    });
  }
}
