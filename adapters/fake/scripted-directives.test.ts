import { describe, expect, it } from "vitest";
import { parseDirectives } from "./scripted-directives.ts";

describe("parseDirectives", () => {
  it("returns no reply for text without directives, even with brackets", () => {
    expect(parseDirectives("hello [[not a directive]] and [x]")).toEqual({ reply: undefined, problems: [] });
  });

  it("reads several tool calls in order, with nested JSON whose strings contain ]] and braces", () => {
    const text =
      'first [[tool read {"path":"a]]b.txt","opts":{"n":[1,[2]]}}]] then [[tool ls]] and [[tool bash {"command":"echo \\"}\\""}]]';
    const parsed = parseDirectives(text);
    expect(parsed.problems).toEqual([]);
    expect(parsed.reply?.toolCalls).toEqual([
      { name: "read", arguments: { path: "a]]b.txt", opts: { n: [1, [2]] } } },
      { name: "ls", arguments: {} },
      { name: "bash", arguments: { command: 'echo "}"' } },
    ]);
  });

  it("combines text, sleep and usage; several text directives join with a space", () => {
    const parsed = parseDirectives("[[text hello]] x [[sleep 250]] [[text world]] [[usage 10 20 3 4]]");
    expect(parsed.reply).toEqual({
      text: "hello world",
      delayMs: 250,
      usage: { input: 10, output: 20, cacheRead: 3, cacheWrite: 4 },
    });
  });

  it("fills missing usage numbers with zero and reads [[error N]] as an HTTP error", () => {
    expect(parseDirectives("[[usage 7]]").reply).toEqual({
      usage: { input: 7, output: 0, cacheRead: 0, cacheWrite: 0 },
    });
    expect(parseDirectives("please [[error 429]]").reply).toEqual({ httpError: { status: 429 } });
  });

  it("reports malformed directives instead of dropping them", () => {
    expect(parseDirectives("[[sleep soon]]").problems).toEqual(["[[sleep soon]] needs non-negative integers"]);
    expect(parseDirectives("[[error 200]]").problems).toEqual(["[[error 200]] has the wrong shape"]);
    expect(parseDirectives("[[tool read {bad json}]]").problems).toEqual([
      "[[tool read]] arguments are not a JSON object",
    ]);
    expect(parseDirectives('[[tool read {"a":1} oops]]').problems).toEqual(["[[tool read ...]] is not closed by ]]"]);
    expect(parseDirectives("[[text never closed").problems).toEqual(["unterminated [[text ..."]);
  });
});
