import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type {
  FusionCapability,
  FusionProgress,
  FusionRunOutcome,
  FusionSource,
} from "../../../domain/fusion/service/index.ts";
import type { Result, TypedError } from "../../../domain/shared/model/result.ts";

export interface FusionLaunch {
  readonly prompt: string;
  readonly capability: FusionCapability;
  readonly source: FusionSource;
  /** The executing tool call, excluded from the projected conversation with its siblings. */
  readonly toolCallId?: string;
  readonly ctx: ExtensionContext;
  readonly signal?: AbortSignal;
  readonly onProgress: (progress: FusionProgress) => void;
}

/** Runs one Fusion workflow for the Pi adapter; the composition root supplies it. */
export type FusionLauncher = (launch: FusionLaunch) => Promise<Result<FusionRunOutcome, TypedError>>;
