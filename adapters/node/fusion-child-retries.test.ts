import { describe, expect, it } from "vitest";
import { ZERO_USAGE } from "../../domain/shared/model/usage.ts";
import type { ChildMessageFrame } from "../../ports/fusion-child-runner.ts";
import { childRetries } from "./fusion-child-retries.ts";

const usage = (input: number) => ({ ...ZERO_USAGE, input, totalTokens: input });
const frame = (stopReason: string, input: number, errorMessage?: string): ChildMessageFrame => ({
  provider: "p",
  model: "m",
  stopReason,
  ...(errorMessage === undefined ? {} : { errorMessage }),
  textBytes: 0,
  textSha256: "0".repeat(64),
  toolCalls: 0,
  usage: usage(input),
});

describe("childRetries", () => {
  it("counts each error followed by another message, numbered, with its usage", () => {
    const frames = [frame("error", 1, "503 busy"), frame("toolUse", 2), frame("error", 3), frame("stop", 4)];
    expect(childRetries(frames)).toEqual([
      { attempt: 1, error: "503 busy", usage: usage(1) },
      { attempt: 2, error: "no error message", usage: usage(3) },
    ]);
  });

  it("never counts the last message: a final error is the failure, not a retry", () => {
    expect(childRetries([frame("error", 1, "a"), frame("error", 2, "b")])).toEqual([
      { attempt: 1, error: "a", usage: usage(1) },
    ]);
    expect(childRetries([frame("error", 1, "a")])).toEqual([]);
    expect(childRetries([])).toEqual([]);
  });
});
