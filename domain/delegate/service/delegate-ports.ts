import type { ReadScope, ReadScopeError } from "../../confinement/model/read-scope.ts";
import type { Result } from "../../shared/model/result.ts";
import type { PiCliFlags } from "../../shared/model/pi-cli-flags.ts";
import type { Clock } from "../../../ports/clock.ts";
import type { ConversationSource } from "../../../ports/conversation-source.ts";
import type { FileCommitter } from "../../../ports/file-committer.ts";
import type { ProcessLauncher } from "../../../ports/process-launcher.ts";
import type { RandomSource } from "../../../ports/random-source.ts";
import type { DelegateLocation } from "../model/delegate-artifacts.ts";
import type { AvailableModel, RouteRef } from "../model/delegate-route.ts";

/** The world a delegate launch talks to, handed in by the composition root. */
export interface DelegatePorts {
  readonly files: FileCommitter;
  readonly launcher: ProcessLauncher;
  readonly clock: Clock;
  readonly random: RandomSource;
  /** The parent conversation of the executing `bg_delegate` call. */
  readonly conversation: ConversationSource;
  /**
   * The child's whole environment: what Pi needs to run and the credential of the child's own route's
   * `provider`, nothing else of the parent's (the child's model may be hijacked), plus `extra`.
   */
  childEnv(extra: Readonly<Record<string, string>>, provider: string): Record<string, string>;
  /** Where the read tools of a child working in `cwd` may reach (the project root without its `.pi/`). */
  readScope(cwd: string): Result<ReadScope, ReadScopeError>;
}

/** Where the child's programs are; read once per host. */
export interface DelegateHost {
  /** `process.execPath` of the parent. */
  readonly nodePath: string;
  /** Pi's cli.js, or undefined when it could not be found. */
  readonly cliPath: string | undefined;
  /** The version of that Pi, or undefined when unknown. */
  readonly piVersion: string | undefined;
  /** The isolation flags that Pi CLI offers (probed from its `--help`). */
  readonly piFlags: PiCliFlags;
  readonly guardExtensionPath: string;
  /** Needed only for `anthropic` routes. */
  readonly anthropicSanitizerPath?: string;
  /** The shipped hook-contract evidence, one `pi-<version>.json` per Pi release it was recorded on. */
  readonly hookEvidenceDir: string;
  /**
   * Reads the files of the installation (Pi's CLI, the guard, the evidence). Unlike the run files under
   * `.pi/`, these may be links: package managers such as pnpm hard-link installed files from their store.
   */
  readonly installedFiles: Pick<FileCommitter, "size" | "readRange">;
  /**
   * For a release with no recorded evidence: the gate's agent loops run against this very Pi CLI, once per
   * release, resolving with the evidence they observed. Absent: such a release is refused.
   */
  readonly proveHookContract?: () => Promise<unknown>;
}

export interface DelegateLaunchRequest {
  /** The tool arguments exactly as the model sent them. */
  readonly rawArguments: unknown;
  /** The executing `bg_delegate` call; its assistant message is scoped out of the seed. */
  readonly toolCallId: string;
  readonly location: DelegateLocation;
  readonly currentRoute: RouteRef | undefined;
  readonly availableModels: readonly AvailableModel[];
  readonly host: DelegateHost;
  /** The task id to use (the host's task runtime id); default `d` + 32 hex. */
  readonly taskId?: string;
}
