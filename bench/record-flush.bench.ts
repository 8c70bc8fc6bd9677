// Exit records of many tasks that end at once (issue #21 item 3): the supervisor's reserveRecord commits, all
// started together, against the same records written and fdatasynced one after another (the supervisor's earlier
// batch), with one directory fsync each way. Rounds alternate between the two; medians reported.
// Run: node --import tsx bench/record-flush.bench.ts [records] [rounds]   (default 200, 7)
import { closeSync, fdatasyncSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reserveRecord } from "../adapters/node/durable-commit.mjs";
import { syncDirectory } from "../adapters/node/directory-sync.mjs";
import { median, report } from "./bench-util.ts";

const RECORDS = Number(process.argv[2] ?? 200);
const ROUNDS = Number(process.argv[3] ?? 7);
const RECORD = `${JSON.stringify({ schema_version: "pi-background-tasks.exit.v1", code: 0, signal: null, endedAt: Date.now(), hostGone: false, spilledBytes: 0, lostOutputBytes: 0 })}\n`;

const root = mkdtempSync(join(tmpdir(), "bench-record-flush-"));
const paths = (round: number, kind: string) => {
  const dir = join(root, `${kind}-${round}`);
  mkdirSync(dir);
  return { dir, files: Array.from({ length: RECORDS }, (_, i) => join(dir, `t${i}.exit.json`)) };
};

async function together(round: number): Promise<number> {
  const { files } = paths(round, "together");
  const records = files.map((path) => reserveRecord(path));
  await new Promise((resolve) => setTimeout(resolve, 50)); // their names durable first, as when tasks end later
  const start = performance.now();
  await Promise.all(records.map((record) => record.commit(RECORD)));
  return performance.now() - start;
}

async function oneAfterAnother(round: number): Promise<number> {
  const { dir, files } = paths(round, "serial");
  const fds = files.map((path) => openSync(path, "wx", 0o600));
  await syncDirectory(dir);
  const bytes = Buffer.from(RECORD);
  const start = performance.now();
  for (const fd of fds) writeSync(fd, bytes, 0, bytes.length, 0);
  for (const fd of fds) {
    fdatasyncSync(fd);
    closeSync(fd);
  }
  return performance.now() - start;
}

try {
  const flushed: number[] = [];
  const serial: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    serial.push(await oneAfterAnother(round));
    flushed.push(await together(round));
  }
  report(`${RECORDS} exit records committed at once, ${ROUNDS} rounds`, {
    "reserveRecord commits, all at once (ms, median)": median(flushed),
    "written, then fdatasynced one after another (ms, median)": median(serial),
    "ratio at once / one after another": median(flushed) / median(serial),
  });
} finally {
  rmSync(root, { recursive: true, force: true });
}
