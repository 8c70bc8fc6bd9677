import type { DelegatePorts } from "../../domain/delegate/service/delegate-ports.ts";
import type { ConversationSource } from "../../ports/conversation-source.ts";
import { CryptoRandomSource } from "./crypto-random-source.ts";
import { NodeFileCommitter } from "./node-file-committer.ts";
import { NodeProcessLauncher } from "./node-process-launcher.ts";
import { confinedChildEnv } from "./confined-child-env.ts";
import { nodeReadScope } from "./node-read-scope.ts";
import { SystemClock } from "./system-clock.ts";

export interface NodeDelegatePortsOptions {
  readonly conversation: ConversationSource;
  /** The environment children start from, minus credentials (default: this process's). */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
}

/** Real ports for tests that launch delegates without a host's wiring: durable files, process groups, the system clock and the OS CSPRNG. */
export function nodeDelegatePorts(options: NodeDelegatePortsOptions): DelegatePorts {
  const baseEnv = options.baseEnv ?? process.env;
  return {
    files: new NodeFileCommitter(),
    launcher: new NodeProcessLauncher(),
    clock: new SystemClock(),
    random: new CryptoRandomSource(),
    conversation: options.conversation,
    childEnv: (extra, provider) => confinedChildEnv(baseEnv, provider, extra),
    readScope: (cwd) => nodeReadScope(cwd, baseEnv),
  };
}
