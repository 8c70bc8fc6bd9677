import { execFile, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { realRuntime, runRequest } from "./real-runtime.test-support.ts";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "exhaustion-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const runner = fileURLToPath(new URL("./fixtures/exhaustion-runner.ts", import.meta.url));
const MiB = 1024 * 1024;

/** A tiny filesystem needs a private mount namespace (unshare -m) and the right to mount tmpfs. */
const canMount =
  spawnSync("unshare", ["-m", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt && umount /mnt"]).status === 0;
if (!canMount)
  console.warn("SKIPPED: the real disk-full case needs `unshare -m` and tmpfs mounts (run as root on Linux)");

async function inChild(shell: string, scenario: string, where: string): Promise<Record<string, unknown>> {
  const { stdout } = await run("sh", ["-c", shell, "sh", where, process.execPath, runner, scenario], {
    timeout: 60_000,
    maxBuffer: 4 * MiB,
  });
  const last = stdout.trim().split("\n").at(-1) ?? "";
  return JSON.parse(last) as Record<string, unknown>;
}

describe("the real runtime under exhausted resources", () => {
  it("an output directory under a regular file is a typed refusal before anything is launched", async () => {
    const file = join(dir, "plain");
    writeFileSync(file, "a file, not a directory\n");
    const { runtime, launches } = realRuntime(join(dir, "cwd-unused"), {
      config: { cwd: dir, taskDir: join(file, "tasks") },
    });
    const started = await runtime.start(runRequest("echo never"));
    expect(started).toMatchObject({ ok: false, error: { code: "task_dir_unwritable" } });
    expect(!started.ok && started.error.message).toContain("ENOTDIR");
    expect(launches()).toBe(0);
  });

  it.skipIf(!canMount)(
    "a disk that fills during output: failed with ENOSPC, the written part kept and every byte accounted for",
    async () => {
      const where = join(dir, "disk-full");
      mkdirSync(join(where, "tasks"), { recursive: true });
      const result = await inChild(
        'mkdir -p "$1/tasks" && exec unshare -m sh -c \'mount -t tmpfs -o size=256k tmpfs "$1/tasks" && exec "$2" --import tsx "$3" "$4" "$1"\' sh "$1" "$2" "$3" "$4"',
        "disk-full",
        where,
      );
      const flood = result.flood as {
        status: string;
        error: string;
        exitCode: number;
        output: { producedBytes: number; keptBytes: number; elidedBytes: number; unwrittenBytes?: number };
      };
      const onDisk = result.floodOnDisk as { outputBytes: number; metadata: string };
      expect(flood.status).toBe("failed");
      expect(flood.exitCode).toBe(0);
      expect(flood.error).toMatch(/ENOSPC/);
      expect(flood.output.producedBytes).toBe(1_000_000);
      expect(flood.output.keptBytes).toBe(onDisk.outputBytes);
      expect(onDisk.outputBytes).toBeGreaterThan(0);
      expect(flood.output.keptBytes + flood.output.elidedBytes + (flood.output.unwrittenBytes ?? 0)).toBe(1_000_000);
      expect(onDisk.metadata).not.toBe("completed");
      expect(result.notices).toEqual(["failed"]);
      // Whether one more small task still fits depends on what the full tmpfs freed (temp files, page
      // rounding); either way the answer is typed and honest.
      const next = result.next as { refused?: { code: string }; started?: { status: string } };
      if (next.refused !== undefined) expect(next.refused.code).toBe("task_dir_unwritable");
      else expect(next.started?.status).toBe("running");
    },
  );

  it("a child that floods 100 MiB on stderr: right accounting, bounded file, bounded host memory", async () => {
    const { runtime } = realRuntime(join(dir, "flood"), { config: { outputCapBytes: MiB } });
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const started = await runtime.start(runRequest(`head -c ${100 * MiB} /dev/zero >&2`));
    if (!started.ok) throw new Error(started.error.message);
    const done = await runtime.waitForTerminal(started.value.id);
    clearInterval(sampler);
    if (!done.ok) throw new Error("lookup failed");
    const { output, status } = done.value;
    expect(status).toBe("completed");
    expect(output.producedBytes).toBe(100 * MiB);
    expect(output.keptBytes + output.elidedBytes).toBe(100 * MiB);
    expect(output.unwrittenBytes).toBeUndefined();
    expect(statSync(join(dir, "flood", "tasks", `${started.value.id}.output`)).size).toBeLessThanOrEqual(MiB);
    expect(peak - before).toBeLessThan(64 * MiB);
    await runtime.shutdown();
  });

  it("descriptor pressure: starts until a launch fails typed, earlier tasks all finish right, descriptors return", async () => {
    const where = join(dir, "fds");
    mkdirSync(where, { recursive: true });
    const result = await inChild(
      'ulimit -n 160 && FD_LIMIT=160 exec "$2" --import tsx "$3" "$4" "$1"',
      "fd-pressure",
      where,
    );
    expect(result.accepted).toBeGreaterThan(5);
    expect(result.wrong).toEqual([]);
    expect(result.descriptorsAfter).toBe(result.baseline);
    const refusal = result.refusal as {
      kind: string;
      task?: { status: string; error: string };
      error?: { code: string };
    };
    if (refusal.kind === "launch failed") {
      expect(refusal.task?.status).toBe("failed");
      expect(refusal.task?.error).toMatch(/EMFILE/);
    } else expect(refusal.error?.code).toMatch(/^[a-z_]+$/);
  });
});
