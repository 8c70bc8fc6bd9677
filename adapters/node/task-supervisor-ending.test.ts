import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ExitRecord } from "../../domain/tasks/model/exit-record.ts";
import { collect, POLICY, record, run, supervisor } from "./task-supervisor.test-support.ts";

afterAll(() => supervisor.close());

/** A well-formed record, as a forger would write one. */
const record0 = (): ExitRecord => ({
  schema_version: "pi-background-tasks.exit.v1",
  code: 0,
  signal: null,
  endedAt: 1,
  hostGone: false,
  spilledBytes: 0,
  lostOutputBytes: 0,
});

describe("task-supervisor.mjs: a task's exit record, and the host letting go of a task", () => {
  it("when the host lets go, the command keeps running: later output goes to the spill file up to its cap, the rest is counted", async () => {
    const payload = "x".repeat(100);
    const { proc, files } = await run(`echo ready; sleep 0.4; printf '${payload}'; echo done >&2; exit 4`, {
      spillCap: 10,
    });
    const out = proc.stdout[Symbol.asyncIterator]();
    expect(Buffer.from((await out.next()).value ?? []).toString()).toBe("ready\n");
    expect(await proc.detach?.()).toBe("let_go"); // the supervisor confirms; the host's connection closes
    await expect.poll(() => statSync(files.exitPath).size > 0, { timeout: 10_000, interval: 50 }).toBe(true);
    expect(record(files.exitPath)).toMatchObject({ code: 4, hostGone: true, spilledBytes: 10, lostOutputBytes: 95 });
    expect(readFileSync(files.spillPath, "utf8")).toBe("x".repeat(10));
  });

  it("a host that lets go while output flows loses nothing: each byte is in its streams or the spill file, in order", async () => {
    const total = 4_000_000;
    const { proc, files } = await run(`yes 0123456789 | head -c ${total}`, { spillCap: 8 << 20 });
    const out = proc.stdout[Symbol.asyncIterator]();
    const received = [Buffer.from((await out.next()).value ?? [])]; // then the host reads nothing: the command waits
    const handedOver = proc.detach?.();
    for (let next = await out.next(); next.done !== true; next = await out.next())
      received.push(Buffer.from(next.value));
    expect(await handedOver).toBe("let_go");
    await expect.poll(() => statSync(files.exitPath).size > 0, { timeout: 10_000, interval: 50 }).toBe(true);
    const host = Buffer.concat(received);
    const spill = readFileSync(files.spillPath);
    expect({ host: host.length > 0, spill: spill.length > 0, sum: host.length + spill.length }).toEqual({
      host: true,
      spill: true,
      sum: total,
    });
    expect(
      Buffer.concat([host, spill]).equals(Buffer.from("0123456789\n".repeat(total / 11 + 1)).subarray(0, total)),
    ).toBe(true);
    expect(record(files.exitPath)).toMatchObject({ hostGone: true, spilledBytes: spill.length, lostOutputBytes: 0 });
  });

  it("a task that ended before the host let go is answered by its end: every byte and the exit reach the host", async () => {
    // Small enough that the command can end while the host reads nothing: the command's pipe (64 KiB) and the
    // socket to the host hold it all, on either lane and under load (the socket holds less when the supervisor
    // relays in small chunks; 300,000 bytes did not always fit in CI). With too much, the command waits for the
    // host and has no record to wait for. The supervisor's write-after-end this guards against needs bytes still
    // in its own buffer, which no size reproduces on both lanes.
    const total = 100_000;
    const { proc, files } = await run(`head -c ${total} /dev/zero | tr '\\0' x; exit 6`);
    await expect.poll(() => statSync(files.exitPath).size > 0, { timeout: 10_000, interval: 20 }).toBe(true);
    const handedOver = proc.detach?.();
    const { stdout, exit } = await collect(proc);
    expect({ outcome: await handedOver, bytes: stdout.length, exit }).toEqual({
      outcome: "ended",
      bytes: total,
      exit: { code: 6, signal: null },
    });
  });

  it("a host that lets go while the task's end is being recorded is answered by that end, never by a let-go", async () => {
    const answers = [];
    for (let i = 0; i < 10; i++) {
      const { proc, files } = await run("exit 6");
      // The record is written before it is synced and the end reported: a "detach" lands between them.
      while (statSync(files.exitPath).size === 0) await new Promise((resolve) => setImmediate(resolve));
      const handedOver = proc.detach?.();
      answers.push({ outcome: await handedOver, exit: await Promise.race([proc.exited, handedOver]) });
    }
    expect(answers).toEqual(Array(10).fill({ outcome: "ended", exit: { code: 6, signal: null } }));
  });

  it("a command that swaps its reserved exit record for its own does not decide what is recorded", async () => {
    const forged = JSON.stringify({ ...record0(), code: 0 });
    const { proc, files } = await run(`rm t.exit.json; printf '%s\\n' '${forged}' > t.exit.json; exit 7`);
    expect((await collect(proc)).exit).toEqual({ code: 7, signal: null });
    expect(record(files.exitPath)).toMatchObject({ code: 7 });
  });

  it("the exit record is created empty before the command starts and written at its end; a file already there refuses the launch", async () => {
    const { proc, files } = await run("sleep 0.3; exit 3");
    expect(statSync(files.exitPath).size).toBe(0); // reserved: nothing recorded yet
    expect((await collect(proc)).exit).toEqual({ code: 3, signal: null });
    expect(record(files.exitPath)).toMatchObject({ code: 3, hostGone: false });

    const dir = mkdtempSync(join(tmpdir(), "supervisor-"));
    const planted = { exitPath: join(dir, "t.exit.json"), spillPath: join(dir, "t.spill"), spillCapBytes: 100 };
    writeFileSync(planted.exitPath, "planted");
    const marker = join(dir, "ran");
    const wrapped = supervisor.wrap(
      { kind: "argv", file: "touch", args: [marker] },
      { PATH: "/usr/bin:/bin" },
      planted,
      POLICY,
    );
    const launched = await supervisor.launch(wrapped, dir);
    expect(launched.ok || launched.error).toMatchObject({
      code: "spawn_failed",
      message: expect.stringContaining(`the exit record ${planted.exitPath} cannot be created: EEXIST`),
    });
    expect(existsSync(marker)).toBe(false);
    expect(readFileSync(planted.exitPath, "utf8")).toBe("planted");
  });
});
