import type { ResolvedFusionModels } from "../domain/fusion/model/fusion-model-resolution.ts";
import type { Result, TypedError } from "../domain/shared/model/result.ts";
import type { HostSession } from "./host-session.ts";

/** The five routes of one Fusion run and the thinking level every child uses. */
export interface FusionModelChoice {
  readonly models: ResolvedFusionModels;
  readonly thinkingLevel: string;
}

/**
 * Where Fusion's routes come from: the saved model configuration (`fusion-models.json`), pinned to the
 * models the host can serve now. A host with sessions resolves `$current` to the session's model; a host
 * without (MCP, passed no session) needs explicit models. Refusals are typed and name what to fix.
 */
export interface FusionModelSource {
  choose(session: HostSession | undefined): Promise<Result<FusionModelChoice, TypedError>>;
}
