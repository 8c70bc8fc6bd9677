import { lstatSync } from "node:fs";
import { join } from "node:path";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";

/**
 * What in a project the host later runs or loads on its own: Pi's project state and extensions (`.pi/`) and
 * git's repository (`.git`: its hooks, its config, which names programs such as `core.fsmonitor`, and files
 * that point git elsewhere, such as `commondir`). A container mounting the project gets these read-only on top
 * of the writable tree, so a command cannot plant code that runs on the host; git in the container can read the
 * repository but not change it. Only those that exist are mounted (a mount needs its source). A symbolic link
 * there is refused: the mount would land on its target, and the command could replace the link itself.
 */
export function hostRunPaths(cwd: string): Result<string[], string> {
  const paths: string[] = [];
  for (const name of [".pi", ".git"]) {
    const path = join(cwd, name);
    let link: boolean;
    try {
      link = lstatSync(path).isSymbolicLink();
    } catch {
      continue; // not there
    }
    if (link)
      return err(
        `${path} is a symbolic link: a container could replace it with a directory of its own, which the host would then use; make it a real directory (or run the task on the host)`,
      );
    paths.push(path);
  }
  return ok(paths);
}
