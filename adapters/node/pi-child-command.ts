import type { PiCliFlags } from "../../domain/shared/model/pi-cli-flags.ts";
import { ok, type Result } from "../../domain/shared/model/result.ts";
import { probePiCliFlags } from "./pi-cli-flags-probe.ts";
import { locatePiCli, type PiCliLocation, type PiCliNotFound } from "./pi-cli-locator.ts";

/**
 * The capability detection of every child: a Pi CLI children can be started with and the flags its own
 * `--help` offers. The command line itself is domain/shared/model/pi-child-argv.ts, the environment
 * pi-child-env.ts.
 */
export interface PiChildCli extends PiCliLocation {
  readonly flags: PiCliFlags;
}

/** `location` given: only its flags are probed (once per CLI and Node). */
export function detectPiChildCli(
  env: Readonly<Record<string, string | undefined>>,
  location?: PiCliLocation,
): Result<PiChildCli, PiCliNotFound> {
  const found = location === undefined ? locatePiCli({ env }) : ok(location);
  if (!found.ok) return found;
  return ok({ ...found.value, flags: probePiCliFlags(process.execPath, found.value.cliPath) });
}
