import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** Every Fusion run directory under `<cwd>/.pi/fusion/<session>-<pid>/` (the area's .gitignore is no session). */
export function fusionRunDirs(cwd: string): string[] {
  const root = join(cwd, ".pi", "fusion");
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((session) => session.isDirectory())
    .flatMap((session) => readdirSync(join(root, session.name)).map((run) => join(root, session.name, run)));
}
