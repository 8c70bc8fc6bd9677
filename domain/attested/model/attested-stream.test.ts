import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createAttestedStream,
  finishAttestedStream,
  ingestAttestedChunk,
  type AttestedStreamState,
} from "./attested-pi-stream.ts";
import { judgeAttestedStream } from "./attested-verdict.ts";
import { blockingChanges, describeChanges, parsePorcelainZ } from "./worktree-status.ts";

const line = (event: unknown) => `${JSON.stringify(event)}\n`;
const assistant = (stopReason: string, extra: Record<string, unknown> = {}) =>
  line({
    type: "message_end",
    message: {
      role: "assistant",
      content: [{ type: "text", text: `reply ${stopReason}` }],
      api: "openai-completions",
      provider: "p",
      model: "m",
      stopReason,
      usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { total: 0.1 } },
      ...extra,
    },
  });
const update = line({
  type: "message_update",
  message: { role: "assistant", content: [{ type: "text", text: "partial" }] },
  assistantMessageEvent: { type: "text_delta", delta: "p" },
});
const GOOD = [
  line({ type: "session", version: 3, id: "sess-1", cwd: "/w" }),
  line({ type: "agent_start" }),
  line({ type: "turn_start" }),
  update,
  assistant("toolUse"),
  line({ type: "tool_execution_start", toolCallId: "1", toolName: "write", args: { path: "r.md" } }),
  line({ type: "tool_execution_end", toolCallId: "1", toolName: "write", isError: false, result: { content: [] } }),
  assistant("stop"),
  line({ type: "agent_end", messages: [] }),
].join("");
const EXPECTED = { provider: "p", model: "m" };

function run(
  text: string,
  chunks: (bytes: Uint8Array) => Uint8Array[] = (b) => [b],
  state: AttestedStreamState = createAttestedStream(),
) {
  let transcript = "";
  for (const chunk of chunks(new TextEncoder().encode(text))) {
    const step = ingestAttestedChunk(state, chunk);
    state = step.state;
    transcript += step.transcript;
  }
  const last = finishAttestedStream(state);
  return { state: last.state, transcript: transcript + last.transcript };
}

const verdictCode = (text: string, state?: AttestedStreamState) => {
  const v = judgeAttestedStream(run(text, undefined, state).state, EXPECTED);
  return v.ok ? "ok" : v.error.code;
};

describe("attested event stream", () => {
  it("folds a good run into a verdict with the session, and renders a transcript", () => {
    const { state, transcript } = run(GOOD);
    expect(judgeAttestedStream(state, EXPECTED)).toEqual({
      ok: true,
      value: { sessionId: "sess-1", finalStopReason: "stop", api: "openai-completions" },
    });
    expect(transcript).toBe("reply toolUse\n→ write(path: r.md)\nreply stop\n");
    expect(state.telemetry.tools).toEqual({ total: 1, failed: 0, byName: { write: 1 } });
  });

  it("gives the same state and transcript however the bytes are chunked", () => {
    const whole = run(GOOD);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 97 }), { minLength: 1, maxLength: 30 }), (sizes) => {
        const split = run(GOOD, (bytes) => {
          const out: Uint8Array[] = [];
          for (let at = 0, k = 0; at < bytes.length; k++) {
            const size = sizes[k % sizes.length] ?? 1;
            out.push(bytes.subarray(at, at + size));
            at += size;
          }
          return out;
        });
        expect(split.transcript).toBe(whole.transcript);
        expect(judgeAttestedStream(split.state, EXPECTED)).toEqual(judgeAttestedStream(whole.state, EXPECTED));
      }),
    );
  });

  it.each([
    ["no events at all", "", "attested_session_not_unique"],
    ["two sessions", line({ type: "session", id: "x" }) + GOOD, "attested_session_not_unique"],
    [
      "a missing agent_end",
      GOOD.replace(line({ type: "agent_end", messages: [] }), ""),
      "attested_agent_loop_not_unique",
    ],
    [
      "two agent loops",
      GOOD + line({ type: "agent_start" }) + assistant("stop") + line({ type: "agent_end" }),
      "attested_agent_loop_not_unique",
    ],
    [
      "no assistant message",
      [line({ type: "session", id: "s" }), line({ type: "agent_start" }), line({ type: "agent_end" })].join(""),
      "attested_no_assistant_message",
    ],
    [
      "a failed model call (exit 0)",
      GOOD.replace(assistant("stop"), assistant("error", { errorMessage: "400 bad" })),
      "attested_stop_reason_not_stop",
    ],
    [
      "a reply cut by the length limit",
      GOOD.replace(assistant("stop"), assistant("length")),
      "attested_stop_reason_not_stop",
    ],
    [
      "a second model",
      GOOD.replace(assistant("stop"), assistant("stop", { model: "other" })),
      "attested_route_unstable",
    ],
  ])("refuses %s", (_label, text, expected) => {
    expect(verdictCode(text)).toBe(expected);
  });

  it("the route must be the requested one, not just stable", () => {
    const v = judgeAttestedStream(run(GOOD).state, { provider: "p", model: "elsewhere" });
    expect(v.ok ? "ok" : v.error.code).toBe("attested_route_unstable");
  });

  it("an over-long agent_end still counts; an over-long assistant message makes the run unverifiable", () => {
    const small = createAttestedStream(600);
    const hugeEnd = line({ type: "agent_end", messages: [{ text: "x".repeat(2000) }] });
    expect(verdictCode(GOOD.replace(line({ type: "agent_end", messages: [] }), hugeEnd), small)).toBe("ok");
    const hugeReply = assistant("stop", { content: [{ type: "text", text: "y".repeat(2000) }] });
    const { state, transcript } = run(GOOD.replace(assistant("stop"), hugeReply), undefined, small);
    expect(judgeAttestedStream(state, EXPECTED).ok ? "ok" : "refused").toBe("refused");
    expect(transcript).toContain("[receipt: a message_end event longer than 600 bytes");
  });

  it("keeps non-JSON lines as text and does not count them as events", () => {
    const { state, transcript } = run(`warning: something\n${GOOD}`);
    expect(state.otherLines).toBe(1);
    expect(transcript.startsWith("warning: something\n")).toBe(true);
    expect(judgeAttestedStream(state, EXPECTED).ok).toBe(true);
  });
});

describe("worktree status", () => {
  const z = (...fields: string[]) => `${fields.join("\0")}\0`;

  it("parses -z entries including renames", () => {
    expect(parsePorcelainZ(z("?? new file.txt", "R  b.txt", "a.txt", " M src/x.ts"))).toEqual([
      { status: "??", path: "new file.txt" },
      { status: "R ", path: "b.txt", from: "a.txt" },
      { status: " M", path: "src/x.ts" },
    ]);
    expect(parsePorcelainZ("")).toEqual([]);
  });

  it("ignores the package's own task artifacts and, at finish, the report only", () => {
    const entries = parsePorcelainZ(
      z("?? sub/.pi/tasks/s-1/b1.output", "?? sub/report.md", "?? sub/other.md", "?? .pi/tasks/elsewhere"),
    );
    expect(blockingChanges(entries, { cwdPrefix: "sub/" }).map((e) => e.path)).toEqual([
      "sub/report.md",
      "sub/other.md",
      ".pi/tasks/elsewhere",
    ]);
    expect(blockingChanges(entries, { cwdPrefix: "sub/", allowedReport: "report.md" }).map((e) => e.path)).toEqual([
      "sub/other.md",
      ".pi/tasks/elsewhere",
    ]);
    const renamed = parsePorcelainZ(z("R  sub/report.md", "sub/old.md"));
    expect(blockingChanges(renamed, { cwdPrefix: "sub/", allowedReport: "report.md" })).toHaveLength(1);
    expect(describeChanges(entries, 1)).toBe("sub/.pi/tasks/s-1/b1.output (??), and 3 more");
  });
});
