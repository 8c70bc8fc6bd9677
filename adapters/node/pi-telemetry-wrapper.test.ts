import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTelemetryFrame, TELEMETRY_FRAME_MARKER } from "../../domain/telemetry/model/telemetry-frame.ts";
import { runProcess, type ProcessOutcome } from "./pi-cli-harness.test-support.ts";
import { piTelemetryWrapperPath } from "./pi-command-interception.ts";

// The wrapper against a fake `pi` (a node script that echoes its argv and plays scripted stdout), so argv
// rewriting, framing, exit codes and signals are checked quickly and exactly. Real-pi runs are in the e2e file.

const FAKE_PI = `
const out = (s) => new Promise((resolve) => process.stdout.write(s, resolve));
const script = JSON.parse(process.env.FAKE_PI_SCRIPT || "{}");
if (script.hang) {
  const timer = setTimeout(() => process.exit(99), 30000); // never outlives a failed test for long
  process.on("SIGTERM", () => { clearTimeout(timer); process.stdout.write("fake pi got SIGTERM\\n"); process.exitCode = 143; });
}
await out(JSON.stringify({ type: "fake_argv", argv: process.argv.slice(2) }) + "\\n");
for (const chunk of script.chunks || []) { await out(chunk); await new Promise((r) => setTimeout(r, 3)); }
for (let i = 0; i < (script.repeat?.count ?? 0); i++) await out(script.repeat.line);
if (script.signal) process.kill(process.pid, script.signal);
else if (!script.hang) process.exitCode = script.exit ?? 0;
`;

let dir: string;
let fakePi: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pi-wrapper-"));
  fakePi = join(dir, "fake-pi.mjs");
  await writeFile(fakePi, FAKE_PI);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface FakeScript {
  readonly chunks?: readonly string[];
  readonly exit?: number;
  readonly signal?: string;
  readonly hang?: boolean;
  readonly repeat?: { readonly line: string; readonly count: number };
}

function runWrapper(
  userArgs: readonly string[],
  script: FakeScript = {},
  extraEnv: Record<string, string> = {},
): Promise<ProcessOutcome> {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", FAKE_PI_SCRIPT: JSON.stringify(script), ...extraEnv };
  return runProcess(process.execPath, [piTelemetryWrapperPath(), process.execPath, fakePi, "--", ...userArgs], {
    cwd: dir,
    env,
  });
}

const lines = (outcome: ProcessOutcome) => outcome.stdout.toString("utf8").split("\n");
const framedPayloads = (outcome: ProcessOutcome) =>
  lines(outcome)
    .filter((l) => l.startsWith(TELEMETRY_FRAME_MARKER))
    .map((l) => l.slice(TELEMETRY_FRAME_MARKER.length));

function argvSeenByPi(outcome: ProcessOutcome): unknown {
  const line = lines(outcome).find((l) => l.includes('"fake_argv"')) ?? "";
  return (JSON.parse(line.replace(TELEMETRY_FRAME_MARKER, "")) as { argv: unknown }).argv;
}

describe("pi-telemetry-wrapper argv", () => {
  it("puts --mode json in front of a -p run and keeps everything else as given", async () => {
    const outcome = await runWrapper(["-p", "hello there", "--model", "-p"]);
    expect(outcome.code).toBe(0);
    expect(argvSeenByPi(outcome)).toEqual(["--mode", "json", "-p", "hello there", "--model", "-p"]);
  });

  it("forwards an explicit --mode json run unchanged", async () => {
    const outcome = await runWrapper(["--mode", "json", "hi"]);
    expect(argvSeenByPi(outcome)).toEqual(["--mode", "json", "hi"]);
    expect(framedPayloads(outcome)).toHaveLength(1);
  });

  it.each(["text", "rpc"])("passes --mode %s through untouched with a frame saying why", async (mode) => {
    const outcome = await runWrapper(["--mode", mode, "-p", "hi"]);
    const [first, ...rest] = lines(outcome);
    expect(parseTelemetryFrame(first ?? "")).toEqual({
      kind: "telemetry",
      telemetry: { telemetryUnavailableReason: `pi-mode-${mode}-not-intercepted` },
    });
    expect(JSON.parse(rest[0] ?? "")).toEqual({ type: "fake_argv", argv: ["--mode", mode, "-p", "hi"] });
  });

  it("leaves a pi call that is not a print run (e.g. --version) completely alone", async () => {
    const outcome = await runWrapper(["--version"], { exit: 0 });
    expect(outcome.stdout.toString("utf8")).toBe(`${JSON.stringify({ type: "fake_argv", argv: ["--version"] })}\n`);
  });

  it("a value-taking flag does not count as print mode (--system-prompt -p)", async () => {
    const outcome = await runWrapper(["--system-prompt", "-p", "hi"]);
    expect(framedPayloads(outcome)).toHaveLength(0);
    expect(argvSeenByPi(outcome)).toEqual(["--system-prompt", "-p", "hi"]);
  });

  it("takes the pi launch from PI_BG_REAL_PI when no `--` separates it", async () => {
    const env = { PATH: process.env.PATH ?? "", PI_BG_REAL_PI: fakePi, FAKE_PI_SCRIPT: "{}" };
    const outcome = await runProcess(process.execPath, [piTelemetryWrapperPath(), "-p", "x"], { cwd: dir, env });
    expect(argvSeenByPi(outcome)).toEqual(["--mode", "json", "-p", "x"]);
  });

  it("a launch that cannot start exits 127, says so on stderr and in a frame", async () => {
    const env = { PATH: process.env.PATH ?? "" };
    const outcome = await runProcess(
      process.execPath,
      [piTelemetryWrapperPath(), join(dir, "no-such-pi"), "--", "-p", "x"],
      { cwd: dir, env },
    );
    expect(outcome.code).toBe(127);
    expect(outcome.stderr).toContain("cannot start pi");
    expect(framedPayloads(outcome).map((p) => JSON.parse(p) as unknown)).toEqual([
      { type: "background-task-telemetry", telemetryUnavailableReason: "pi-launch-failed" },
    ]);
  });
});

describe("pi-telemetry-wrapper framing", () => {
  it("frames every line, drops bulky duplicates, slims agent_end and keeps split and unterminated lines whole", async () => {
    const assistantEnd = JSON.stringify({
      type: "message_end",
      message: { role: "assistant", content: [{ type: "text", text: "x".repeat(300) }], stopReason: "stop" },
    });
    const chunks = [
      '{"type":"agent_start"}\n{"type":"message_up',
      'date","message":{"role":"assistant"}}\n',
      assistantEnd.slice(0, 10),
      assistantEnd.slice(10, 200),
      `${assistantEnd.slice(200)}\n`,
      '{"type":"turn_end","message":{}}\n{"type":"tool_execution_update"}\n',
      '{"type":"agent_end","messages":[{"role":"user","content":"big"}]}\n',
      "\n",
      "not json from pi\n",
      '{"type":"queue_update"',
    ];
    const outcome = await runWrapper(["-p", "x"], { chunks });
    const expected = [
      JSON.stringify({ type: "fake_argv", argv: ["--mode", "json", "-p", "x"] }),
      '{"type":"agent_start"}',
      assistantEnd,
      '{"type":"agent_end","wrapperOmitted":["messages"]}',
    ].map((l) => `${TELEMETRY_FRAME_MARKER}${l}\n`);
    expected.push(
      "\n",
      `${TELEMETRY_FRAME_MARKER}not json from pi\n`,
      `${TELEMETRY_FRAME_MARKER}{"type":"queue_update"`,
    );
    expect(outcome.stdout.toString("utf8")).toBe(expected.join(""));
  });
});

describe("pi-telemetry-wrapper exit", () => {
  it("exits with the child's exit code", async () => {
    expect((await runWrapper(["-p", "x"], { exit: 3 })).code).toBe(3);
  });

  it("a -p run whose last assistant message failed exits 1 like `pi -p` would, although json mode exits 0", async () => {
    const failed = JSON.stringify({
      type: "message_end",
      message: { role: "assistant", content: [], stopReason: "error", errorMessage: "400 nope" },
    });
    expect((await runWrapper(["-p", "x"], { chunks: [`${failed}\n`], exit: 0 })).code).toBe(1);
    expect((await runWrapper(["--mode", "json", "x"], { chunks: [`${failed}\n`], exit: 0 })).code).toBe(0);
  });

  it("re-raises the signal the child died from", async () => {
    const outcome = await runWrapper(["-p", "x"], { signal: "SIGTERM" });
    expect(outcome).toMatchObject({ code: null, signal: "SIGTERM" });
  });

  it("forwards SIGTERM to pi and waits for it", async () => {
    const env = { PATH: process.env.PATH ?? "", FAKE_PI_SCRIPT: JSON.stringify({ hang: true }) };
    const child = spawn(process.execPath, [piTelemetryWrapperPath(), process.execPath, fakePi, "--", "-p", "x"], {
      cwd: dir,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const out: Buffer[] = [];
    const firstLine = new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    child.stdout.on("data", (c: Buffer) => out.push(c));
    const closed = new Promise<[number | null, string | null]>((resolve) =>
      child.on("close", (code, signal) => resolve([code, signal])),
    );
    try {
      await firstLine;
      child.kill("SIGTERM");
      expect(await closed).toEqual([143, null]);
      expect(Buffer.concat(out).toString("utf8")).toContain(`${TELEMETRY_FRAME_MARKER}fake pi got SIGTERM\n`);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  });

  it("keeps draining pi and returns its exit code when the reader of stdout goes away", async () => {
    const line = `${JSON.stringify({ type: "tool_execution_start", toolName: "t", args: { pad: "y".repeat(4000) } })}\n`;
    const env = {
      PATH: process.env.PATH ?? "",
      FAKE_PI_SCRIPT: JSON.stringify({ repeat: { line, count: 100 }, exit: 5 }),
    };
    const child = spawn(process.execPath, [piTelemetryWrapperPath(), process.execPath, fakePi, "--", "-p", "x"], {
      cwd: dir,
      env,
      stdio: ["ignore", "pipe", "ignore"],
    });
    child.stdout.once("data", () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    expect(code).toBe(5);
  });
});
