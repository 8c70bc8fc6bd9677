import { describe, expect, it } from "vitest";
import {
  CREDENTIAL,
  CWD,
  expectFailedWithEvidenceOnly,
  request,
  runToEnd,
  setup,
} from "./attested-pi-runner.test-support.ts";

// The report must be this run's own: created or changed while the child ran, a regular file at its own path.

describe("AttestedPiRunner: a report that does not count fails the run and seals nothing", () => {
  it.each([
    ["a missing report", { report: null }, /attested_report_missing/],
    [
      "a report symlinked outside the worktree",
      { report: { real: "/etc/r.md", content: "x" } },
      /attested_report_outside_worktree/,
    ],
    [
      "a tracked report the run left unchanged",
      { reportBefore: "# old report\n", report: { real: `${CWD}/r.md`, content: "# old report\n" } },
      /the report r\.md was not created or changed by this run \(attested_report_not_written\)/,
    ],
    [
      "a report that is a symlink to another file in the worktree",
      { report: { real: `${CWD}/notes.md`, content: "x" } },
      /attested_report_not_regular_file/,
    ],
    [
      "a report planted as a hard link",
      { report: { real: `${CWD}/r.md`, content: "x", planted: "hard_link" } },
      /attested_report_not_regular_file/,
    ],
    [
      "a report planted as a FIFO",
      { report: { real: `${CWD}/r.md`, content: "x", planted: "fifo" } },
      /attested_report_not_regular_file/,
    ],
  ] as const)("%s", async (_label, options, error) => expectFailedWithEvidenceOnly(options, error));
});

describe("AttestedPiRunner: the report before the run", () => {
  it("a tracked report the run rewrote passes", async () => {
    const env = await setup({ reportBefore: "# old report\n" });
    expect((await runToEnd(env)).status).toBe("completed");
  });

  it("a report that exists but cannot be read at start", async () => {
    const env = await setup({ reportBefore: "# old report\n" });
    env.memory.failNext("size", "EACCES");
    const started = await env.runner.start(request(), CREDENTIAL);
    expect(started.ok ? "started" : started.error.code).toBe("attested_report_unreadable");
    expect(started.ok ? "" : started.error.message).toContain("Nothing was started or written");
    expect(env.launcher.launches).toHaveLength(0);
  });
});
