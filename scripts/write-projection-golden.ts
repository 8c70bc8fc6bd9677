/**
 * Writes the projection golden corpus once. It refuses to overwrite: a golden file that changes
 * whenever the code changes proves nothing. To re-baseline deliberately, delete the file by hand,
 * run this, and review the diff.
 *
 *   node --import tsx scripts/write-projection-golden.ts
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { GOLDEN_FILE_NAME, renderGoldenCorpus } from "../domain/projection/fixtures/golden-render.ts";

const target = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "domain",
  "projection",
  "fixtures",
  GOLDEN_FILE_NAME,
);
try {
  writeFileSync(target, renderGoldenCorpus(), { encoding: "utf8", flag: "wx" });
  console.log(`wrote ${target}`);
} catch (e) {
  if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  console.error(`refusing to overwrite existing golden file ${target}`);
  process.exitCode = 1;
}
