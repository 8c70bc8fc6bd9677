import type { ArtifactTree, TreeScan } from "../../../ports/artifact-tree.ts";
import type { FileCommitter } from "../../../ports/file-committer.ts";
import { launchesDir, runDirFromPointer } from "../../delegate/model/launch-pointer.ts";
import { readSmallFile } from "../../tasks/service/orphan-files.ts";

const MAX_POINTER_BYTES = 4096;

/**
 * After a delegate run directory went: the launch pointers (`.pi/delegate/launches/<taskId>.json`) of its
 * delegates, each only if it names that very directory. Returns what could not be removed.
 */
export async function removeLaunchPointers(
  deps: { readonly tree: ArtifactTree; readonly files: FileCommitter },
  root: string,
  dirName: string,
  scan: TreeScan,
): Promise<string | undefined> {
  const left: string[] = [];
  const baseDir = root.slice(0, -"/.pi/delegate".length);
  for (const entry of scan.entries) {
    if (entry.kind !== "dir" || entry.path === "" || entry.path.includes("/")) continue;
    const taskId = entry.path;
    const bytes = await readSmallFile(deps.files, `${launchesDir(baseDir)}/${taskId}.json`, MAX_POINTER_BYTES);
    if (!bytes.ok) continue; // none, or not a file of ours: left as it is
    const named = runDirFromPointer(bytes.value, baseDir, taskId);
    if ("dir" in named && named.dir === `${root}/${dirName}/${taskId}`) {
      const removed = await deps.tree.removeFile(root, "launches", `${taskId}.json`);
      if (!removed.ok) left.push(removed.error.message);
    }
  }
  return left.length === 0 ? undefined : `launch pointers kept: ${left.join("; ")}`;
}
