import { within } from "../../confinement/model/read-scope.ts";

/**
 * The `scope` entries of a `fusion_validate` request that name a path outside the reviewers' read root: an
 * absolute path, a `~` path, or one whose `..` climbs out of it (resolved lexically against `cwd`; symlinks
 * are the child's own check). Entries that are not paths ("the parser module") are the reviewers' to read.
 */
export function scopeEntriesOutside(scope: readonly string[], cwd: string, root: string): string[] {
  return scope.filter((entry) => {
    const path = entry.trim().split(/\s/)[0] ?? "";
    if (!path.startsWith("/") && !path.startsWith("~") && !path.split("/").includes("..")) return false;
    if (path.startsWith("~")) return true;
    return !within(lexicalResolve(path.startsWith("/") ? path : `${cwd}/${path}`), root);
  });
}

function lexicalResolve(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}
