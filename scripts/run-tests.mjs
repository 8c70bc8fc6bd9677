#!/usr/bin/env node
// Runs the whole suite with vitest and ends with one plain summary line: "tests: N passed, N failed, N skipped".
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dir = mkdtempSync(join(tmpdir(), "pi-bg-tests-"));
const report = join(dir, "report.json");
const args = ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)];
const child = spawn("npx", args, { stdio: "inherit" });
child.on("exit", (code, signal) => {
  let summary = "tests: no report was written";
  try {
    const r = JSON.parse(readFileSync(report, "utf8"));
    const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    summary = `tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`;
    if (r.numTotalTests === 0) summary += " (no test ran)";
  } catch {}
  rmSync(dir, { recursive: true, force: true });
  console.log(`\n${summary}`);
  process.exit(code ?? (signal ? 1 : 0));
});
