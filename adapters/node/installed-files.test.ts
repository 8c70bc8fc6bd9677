import { execFileSync } from "node:child_process";
import { linkSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installedFiles } from "./installed-files.ts";
import { NodeFileCommitter } from "./node-file-committer.ts";

describe("installedFiles", () => {
  it("reads installed files that pnpm hard-links or npm link symlinks, which run files may not be", async () => {
    const dir = mkdtempSync(join(tmpdir(), "installed-"));
    writeFileSync(join(dir, "store-cli.js"), "// pi");
    linkSync(join(dir, "store-cli.js"), join(dir, "cli.js"));
    symlinkSync(join(dir, "store-cli.js"), join(dir, "linked-cli.js"));
    for (const name of ["cli.js", "linked-cli.js"]) {
      const read = await installedFiles.readRange(join(dir, name), 0, 5);
      expect(read.ok ? new TextDecoder().decode(read.value) : read.error.code).toBe("// pi");
      const owned = await new NodeFileCommitter().size(join(dir, name));
      expect(owned.ok ? "accepted" : owned.error.code).toBe("untrusted_file");
    }
  });

  it("refuses a FIFO without blocking, and says a missing file is missing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "installed-"));
    execFileSync("mkfifo", [join(dir, "fifo")]);
    const fifo = await installedFiles.readRange(join(dir, "fifo"), 0, 1);
    expect(fifo.ok ? "read" : fifo.error.code).toBe("untrusted_file");
    const missing = await installedFiles.size(join(dir, "none"));
    expect(missing.ok ? "found" : missing.error.code).toBe("file_not_found");
  });
});
