import { execFileSync, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { judgePiRun } from "../../domain/telemetry/model/pi-run-verdict.ts";
import {
  createWrappedPiOutput,
  finishWrappedPiOutput,
  ingestWrappedPiChunk,
  wrappedPiTelemetry,
} from "../../domain/telemetry/model/wrapped-pi-output.ts";
import {
  createPiSandbox,
  LEAN_PI_FLAGS,
  lastUserText,
  PI_CLI_PATH,
  runProcess,
  SCRIPTED_MODEL,
  startScriptedStub,
  type ChatRequest,
  type OpenAiUsage,
  type PiSandbox,
  type ScriptedStub,
  type StubReply,
} from "./pi-cli-harness.test-support.ts";
import { planPiInterception, piTelemetryWrapperPath } from "./pi-command-interception.ts";

// End to end: a task command `pi -p …` goes through the planned shell prefix, the wrapper and the real pi CLI
// against a loopback stub; the host-side ingest turns the wrapper's stdout into a transcript and telemetry.

const HELLO_USAGE: OpenAiUsage = { prompt_tokens: 2400, completion_tokens: 600 };
const TOOL_USAGE: OpenAiUsage = { prompt_tokens: 300, completion_tokens: 40 };
const FINAL_USAGE: OpenAiUsage = {
  prompt_tokens: 420,
  completion_tokens: 25,
  prompt_tokens_details: { cached_tokens: 100 },
};
const WINDOWS = new Map([[`${SCRIPTED_MODEL.provider}/${SCRIPTED_MODEL.id}`, SCRIPTED_MODEL.contextWindow]]);
const HELLO_TEXT = "hello from the stub";

function choose(request: ChatRequest): StubReply {
  if (request.messages[request.messages.length - 1]?.role === "tool")
    return { kind: "text", text: "read both", usage: FINAL_USAGE };
  const text = lastUserText(request);
  if (text.includes("use tools"))
    return {
      kind: "tool_calls",
      calls: [
        { name: "read", args: { path: "notes.txt" } },
        { name: "read", args: { path: "nope.txt" } },
      ],
      usage: TOOL_USAGE,
    };
  if (text.includes("please fail")) return { kind: "http_error", status: 400, message: "scripted bad request" };
  if (text.includes("hang")) return { kind: "hang" };
  return { kind: "text", text: HELLO_TEXT, usage: HELLO_USAGE };
}

let stub: ScriptedStub;
let sandbox: PiSandbox;

beforeAll(async () => {
  stub = await startScriptedStub(choose);
  sandbox = await createPiSandbox(stub.baseUrl);
  await writeFile(join(sandbox.cwd, "notes.txt"), "some notes\n");
});

afterAll(async () => {
  await stub?.close();
  await sandbox?.dispose();
});

const lean = LEAN_PI_FLAGS.join(" ");

function wrappedCommand(command: string): string {
  const plan = planPiInterception(command, {
    env: {},
    wrapperPath: piTelemetryWrapperPath(),
    nodePath: process.execPath,
    piCliPath: PI_CLI_PATH,
  });
  if (!plan.wrapped) throw new Error(`expected the command to be wrapped, got ${plan.reason}`);
  return plan.command;
}

/** Feeds the task stdout to the host ingest in uneven chunks, as a pipe would deliver it. */
function ingest(stdout: Buffer) {
  let state = createWrappedPiOutput();
  const parts: Buffer[] = [];
  for (let at = 0, size = 7; at < stdout.length; at += size, size = ((size * 5) % 977) + 1) {
    const step = ingestWrappedPiChunk(state, stdout.subarray(at, at + size));
    state = step.state;
    parts.push(Buffer.from(step.output));
  }
  const last = finishWrappedPiOutput(state);
  parts.push(Buffer.from(last.output));
  return { state: last.state, text: Buffer.concat(parts).toString("utf8") };
}

describe.concurrent("pi -p as a wrapped task command", () => {
  it("stdout carries frames the host turns into a transcript and the scripted telemetry", async () => {
    const outcome = await runProcess(
      "/bin/sh",
      ["-c", wrappedCommand(`echo before; pi -p "say hello" ${lean}; echo after`)],
      sandbox,
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout.toString("utf8")).toContain("\u001ePI_BG_TELEMETRY ");
    const { state, text } = ingest(outcome.stdout);
    expect(text).toBe(`before\n${HELLO_TEXT}\nafter\n`);
    const telemetry = wrappedPiTelemetry(state, WINDOWS);
    const total = HELLO_USAGE.prompt_tokens + HELLO_USAGE.completion_tokens;
    expect(telemetry).toMatchObject({
      tokenUsage: {
        input: HELLO_USAGE.prompt_tokens,
        output: HELLO_USAGE.completion_tokens,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: total,
      },
      contextUsage: {
        tokens: total,
        contextWindow: SCRIPTED_MODEL.contextWindow,
        percent: (total / SCRIPTED_MODEL.contextWindow) * 100,
      },
      toolUsage: { total: 0, failed: 0, byName: {} },
      model: `${SCRIPTED_MODEL.provider}/${SCRIPTED_MODEL.id}`,
    });
    const cost =
      (HELLO_USAGE.prompt_tokens * SCRIPTED_MODEL.costPerMillion.input +
        HELLO_USAGE.completion_tokens * SCRIPTED_MODEL.costPerMillion.output) /
      1e6;
    expect(telemetry.tokenUsage?.costTotal).toBeCloseTo(cost, 12);
    expect(judgePiRun(state.telemetry).ok).toBe(true);
  });

  it("a tool round shows calls and failures in the transcript and counts them", async () => {
    const outcome = await runProcess("/bin/sh", ["-c", wrappedCommand(`pi -p "use tools please" ${lean}`)], sandbox);
    expect(outcome.code, outcome.stderr).toBe(0);
    const { state, text } = ingest(outcome.stdout);
    expect(text.split("\n")).toEqual([
      "→ read(path: notes.txt)",
      "→ read(path: nope.txt)",
      expect.stringMatching(/^✗ read failed: .*nope\.txt/),
      "read both",
      "",
    ]);
    const cached = FINAL_USAGE.prompt_tokens_details?.cached_tokens ?? 0;
    expect(wrappedPiTelemetry(state, WINDOWS)).toMatchObject({
      toolUsage: { total: 2, failed: 1, byName: { read: 2 } },
      tokenUsage: {
        input: TOOL_USAGE.prompt_tokens + FINAL_USAGE.prompt_tokens - cached,
        output: TOOL_USAGE.completion_tokens + FINAL_USAGE.completion_tokens,
        cacheRead: cached,
      },
      contextUsage: { tokens: FINAL_USAGE.prompt_tokens + FINAL_USAGE.completion_tokens },
    });
  });

  it("a failed model call ends the transcript with its stopReason and the call exits 1 as pi -p would", async () => {
    const outcome = await runProcess(
      "/bin/sh",
      ["-c", wrappedCommand(`pi -p "please fail" ${lean}; echo "pi exit=$?"`)],
      sandbox,
    );
    const { state, text } = ingest(outcome.stdout);
    // Pi 1.x quotes the whole provider error body after the status; 0.73 only its message.
    expect(text).toMatch(/^\[stopReason: error\] .*scripted bad request.*\npi exit=1\n$/);
    const verdict = judgePiRun(state.telemetry);
    expect(verdict.ok ? "ok" : verdict.error.code).toBe("pi_model_call_failed");
    expect(wrappedPiTelemetry(state, WINDOWS).tokenUsage?.totalTokens).toBe("unavailable");
  });

  it("pi -p redirected to a file inside the command is left alone: the file gets pi's plain text", async () => {
    const outcome = await runProcess(
      "/bin/sh",
      [
        "-c",
        wrappedCommand(
          `pi -p "say hello" ${lean} > answer.txt; cat answer.txt; x=$(pi -p "say hello" ${lean}); echo "[$x]"`,
        ),
      ],
      sandbox,
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout.toString("utf8")).toBe(`${HELLO_TEXT}\n[${HELLO_TEXT}]\n`);
  });
});

describe("signals through the wrapper", () => {
  it("SIGTERM to the wrapper reaches the pi child, which exits; the wrapper reports pi's exit", async () => {
    const launch = [piTelemetryWrapperPath(), process.execPath, PI_CLI_PATH, "--", "-p", "hang on", ...LEAN_PI_FLAGS];
    const requested = stub.nextRequest();
    const wrapper = spawn(process.execPath, launch, {
      cwd: sandbox.cwd,
      env: sandbox.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    wrapper.stdout.resume();
    wrapper.stderr.resume();
    const closed = new Promise<[number | null, string | null]>((resolve) =>
      wrapper.on("close", (code, signal) => resolve([code, signal])),
    );
    let piPid = 0;
    try {
      await requested;
      piPid = Number(execFileSync("ps", ["-o", "pid=", "--ppid", String(wrapper.pid)], { encoding: "utf8" }).trim());
      expect(piPid).toBeGreaterThan(0);
      wrapper.kill("SIGTERM");
      expect(await Promise.race([closed, delay(20_000).then(() => "still running after 20 s")])).toEqual([143, null]);
      expect(isAlive(piPid)).toBe(false);
    } finally {
      // Never leave a hanging pi behind, whatever failed above.
      for (const pid of [piPid, wrapper.pid ?? 0]) if (pid > 0 && isAlive(pid)) process.kill(pid, "SIGKILL");
    }
  });
});

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
