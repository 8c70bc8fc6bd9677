import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { syncDirectory } from "./directory-sync.mjs";

describe("syncDirectory (shared directory fsync)", () => {
  it("every one of many concurrent callers resolves, those of several directories alike", async () => {
    const dirs = [1, 2, 3].map(() => mkdtempSync(join(tmpdir(), "dir-sync-")));
    const calls = Array.from({ length: 300 }, (_, i) => syncDirectory(dirs[i % 3] ?? ""));
    await expect(Promise.all(calls)).resolves.toHaveLength(300);
    await expect(syncDirectory(dirs[0] ?? "")).resolves.toBeUndefined(); // and again once all have settled
  });

  it("a directory that is gone fails every caller waiting on it with the system's error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dir-sync-"));
    rmSync(dir, { recursive: true });
    const calls = Array.from({ length: 5 }, () => syncDirectory(dir));
    for (const call of calls) await expect(call).rejects.toMatchObject({ code: "ENOENT" });
  });
});
