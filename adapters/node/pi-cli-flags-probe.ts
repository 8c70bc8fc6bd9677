import { spawnSync } from "node:child_process";
import { BASELINE_PI_FLAGS, parsePiHelpFlags, type PiCliFlags } from "../../domain/shared/model/pi-cli-flags.ts";

const probed = new Map<string, PiCliFlags>();

/**
 * The isolation flags of the Pi CLI at `cliPath`, read once per process from its own `--help` (about 0.3 s on
 * Pi 1.6, 1 s on Pi 0.73, offline and without credentials). A CLI whose help cannot be read is given only
 * the flags every supported Pi has; it is the one a child then fails to start with, loudly.
 */
export function probePiCliFlags(nodePath: string, cliPath: string): PiCliFlags {
  const key = `${nodePath}\0${cliPath}`;
  const known = probed.get(key);
  if (known !== undefined) return known;
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/",
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
  };
  const run = spawnSync(nodePath, [cliPath, "--help"], {
    env,
    encoding: "utf8",
    timeout: 20_000,
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Pi 0.73 prints its help on stderr, Pi 1.x on stdout: read both.
  const flags = run.status === 0 ? parsePiHelpFlags(`${run.stdout}\n${run.stderr}`) : BASELINE_PI_FLAGS;
  probed.set(key, flags);
  return flags;
}
