import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { drain } from "../../contract-tests/process-output.ts";
import type { LaunchSpec, RunningProcess } from "../../ports/process-launcher.ts";
import { NodeProcessLauncher } from "./node-process-launcher.ts";

const MiB = 1024 * 1024;
const workDir = mkdtempSync(join(tmpdir(), "npl-stream-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const launcher = new NodeProcessLauncher();
const shell = (command: string): LaunchSpec => ({
  command: { kind: "shell", command, shell: "/bin/sh" },
  cwd: workDir,
  env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
});

function start(spec: LaunchSpec): RunningProcess {
  const launched = launcher.launch(spec);
  if (!launched.ok) throw new Error(launched.error.message);
  return launched.value;
}

const settledYet = async (promise: Promise<unknown>) => {
  const marker = Symbol("pending");
  return (await Promise.race([promise, new Promise((resolve) => setImmediate(() => resolve(marker)))])) !== marker;
};

describe("NodeProcessLauncher streaming", () => {
  it("carries 64 MiB through stdout byte-exact, holding the child back while nobody reads", async () => {
    const payload = randomBytes(64 * MiB);
    const expected = createHash("sha256").update(payload).digest("hex");
    const file = join(workDir, "payload.bin");
    writeFileSync(file, payload);

    const proc = start(shell(`cat '${file}'`));
    const stderr = drain(proc.stderr);
    const rssBefore = process.memoryUsage().rss;
    const iterator = proc.stdout[Symbol.asyncIterator]();
    const hash = createHash("sha256");
    let count = 0;
    const first = await iterator.next();
    if (first.done === true) throw new Error("no output at all");
    hash.update(first.value);
    count += first.value.length;

    // Nobody pulls for a while: with back-pressure the child must still be blocked on the pipe.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await settledYet(proc.exited)).toBe(false);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(16 * MiB);

    let peakGrowth = 0;
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
      hash.update(next.value);
      count += next.value.length;
      peakGrowth = Math.max(peakGrowth, process.memoryUsage().rss - rssBefore);
    }
    expect(count).toBe(payload.length);
    expect(hash.digest("hex")).toBe(expected);
    expect(peakGrowth).toBeLessThan(48 * MiB); // the payload itself is 64 MiB
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    expect((await stderr).length).toBe(0);
  });

  it("reports `kill -TERM $$` as signal SIGTERM with no code", async () => {
    const proc = start(shell("echo before; kill -TERM $$; echo after"));
    const [out, , exit] = await Promise.all([drain(proc.stdout), drain(proc.stderr), proc.exited]);
    expect(new TextDecoder().decode(out)).toBe("before\n");
    expect(exit).toEqual({ code: null, signal: "SIGTERM" });
  });

  it("reports an exit code above 128 as a code, not a signal", async () => {
    const proc = start(shell("exit 143"));
    expect(await proc.exited).toEqual({ code: 143, signal: null });
  });

  it("deferred stdin: the child sees nothing until sendStdin, then exactly the bytes and EOF", async () => {
    const proc = start({ ...shell("echo started; cat"), stdin: "deferred" });
    const iterator = proc.stdout[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(new TextDecoder().decode(first.done === true ? undefined : first.value)).toBe("started\n");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await settledYet(proc.exited)).toBe(false); // cat still waits for its input
    expect(await proc.sendStdin?.(new TextEncoder().encode("late ✓"))).toBeUndefined();
    const rest = drain({ [Symbol.asyncIterator]: () => iterator });
    const [out, , exit] = await Promise.all([rest, drain(proc.stderr), proc.exited]);
    expect(new TextDecoder().decode(out)).toBe("late ✓");
    expect(exit).toEqual({ code: 0, signal: null });
    expect(() => proc.sendStdin?.(new Uint8Array())).toThrow(/twice/);
  });

  it("deferred stdin to a child that has exited resolves with why the write failed", async () => {
    const proc = start({ ...shell("exit 0"), stdin: "deferred" });
    await Promise.all([drain(proc.stdout), drain(proc.stderr), proc.exited]);
    expect(await proc.sendStdin?.(new Uint8Array(256 * 1024))).toMatch(/already closed/);
  });

  it("sendStdin on a launch without deferred stdin is a bug", () => {
    const proc = start(shell("true"));
    expect(() => proc.sendStdin?.(new Uint8Array())).toThrow(/deferred/);
  });
});
