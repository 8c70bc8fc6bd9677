import { err, ok, type Result } from "../../shared/model/result.ts";
import { ARTIFACT } from "../model/fusion-artifacts.ts";
import { fusionError, type FusionError, type FusionErrorStage } from "../model/fusion-error.ts";
import { transitionManifest, type FusionManifest } from "../model/fusion-manifest.ts";
import type { FusionState } from "../model/fusion-state.ts";
import type { RunArtifacts } from "./run-artifacts.ts";

/**
 * The manifest in memory plus its durable copy. Updates apply at once; writes run one at a time
 * and each writes the newest state, so the file never goes backwards and a resolved update is on disk.
 */
export class ManifestStore {
  #current: FusionManifest;
  #chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly artifacts: RunArtifacts,
    initial: FusionManifest,
  ) {
    this.#current = initial;
  }

  get current(): FusionManifest {
    return this.#current;
  }

  update(
    change: (manifest: FusionManifest) => FusionManifest,
    stage: FusionErrorStage,
  ): Promise<Result<void, FusionError>> {
    this.#current = change(this.#current);
    const write = this.#chain.then(() => this.artifacts.writeJson(ARTIFACT.manifest, this.#current, stage));
    this.#chain = write;
    return write;
  }

  /** Moves the state machine; an illegal move is refused as `state_transition_invalid` and nothing is written. */
  async transition(to: FusionState, at: string, stage: FusionErrorStage): Promise<Result<void, FusionError>> {
    const moved = transitionManifest(this.#current, to, at);
    if (!moved.ok) return err(fusionError("state_transition_invalid", moved.error.message, { stage }));
    const written = await this.update(() => moved.value, stage);
    return written.ok ? ok(undefined) : written;
  }
}
