import { lstatSync } from "node:fs";
import { join } from "node:path";

/**
 * What in a project the host later runs or loads on its own: Pi's project state and extensions (`.pi/`), git's
 * hooks and its config (`core.hooksPath`, `core.fsmonitor` and the like name programs). A container mounting
 * the project gets these read-only on top of the writable tree, so a command cannot plant code that runs on the
 * host. Only those that exist (a mount needs its source); git then cannot change its config in the container.
 */
export function hostRunPaths(cwd: string): string[] {
  return [".pi", join(".git", "hooks"), join(".git", "config")]
    .map((relative) => join(cwd, relative))
    .filter((path) => {
      try {
        lstatSync(path);
        return true;
      } catch {
        return false;
      }
    });
}
