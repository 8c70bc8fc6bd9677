import type { HostSession } from "../../../ports/host-session.ts";
import type { Result, TypedError } from "../../shared/model/result.ts";
import type { FusionProgress } from "../model/fusion-progress.ts";
import type { FusionCapability, FusionSource } from "../model/fusion-workflow.ts";
import type { FusionRunOutcome } from "./fusion-run-request.ts";

/** One brainstorm, from the tool or the `/fusion` command: over the session's conversation, or (no session) the prompt alone. */
export interface FusionLaunch {
  readonly prompt: string;
  readonly capability: FusionCapability;
  readonly source: FusionSource;
  /** The executing tool call, excluded from the projected conversation with its siblings. */
  readonly toolCallId?: string;
  readonly session?: HostSession;
  readonly signal?: AbortSignal;
  readonly onProgress: (progress: FusionProgress) => void;
}

export type FusionLauncher = (launch: FusionLaunch) => Promise<Result<FusionRunOutcome, TypedError>>;
