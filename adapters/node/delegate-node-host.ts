import { installedFiles } from "./installed-files.ts";
import { fileURLToPath } from "node:url";
import type { DelegateHost } from "../../domain/delegate/service/delegate-ports.ts";
import { BASELINE_PI_FLAGS } from "../../domain/shared/model/pi-cli-flags.ts";
import { detectPiChildCli } from "./pi-child-command.ts";

// Paths, not imports: the guard and the sanitizer are child programs loaded by the child Pi, and the
// evidence is data.
export const DELEGATE_GUARD_EXTENSION_PATH = fileURLToPath(
  new URL("../pi/child/delegate-guard-extension.ts", import.meta.url),
);
export const ANTHROPIC_SANITIZER_PATH = fileURLToPath(
  new URL("../pi/child/anthropic-sanitizer-extension.ts", import.meta.url),
);
export const HOOK_CONTRACT_EVIDENCE_DIR = fileURLToPath(
  new URL("../../domain/delegate/model/hook-contract-evidence", import.meta.url),
);

/**
 * The host facts of a delegate launch on Node: this Node binary, the Pi CLI (PI_BG_PI_CLI, the host's
 * own CLI, or the installed dependency) and its version, and the package's own guard and evidence.
 */
export function nodeDelegateHost(env: Readonly<Record<string, string | undefined>> = process.env): DelegateHost {
  const cli = detectPiChildCli(env);
  return {
    nodePath: process.execPath,
    cliPath: cli.ok ? cli.value.cliPath : undefined,
    piVersion: cli.ok ? cli.value.version : undefined,
    piFlags: cli.ok ? cli.value.flags : BASELINE_PI_FLAGS,
    guardExtensionPath: DELEGATE_GUARD_EXTENSION_PATH,
    anthropicSanitizerPath: ANTHROPIC_SANITIZER_PATH,
    hookEvidenceDir: HOOK_CONTRACT_EVIDENCE_DIR,
    installedFiles,
  };
}
