import { describe, expect, it } from "vitest";
import { estimateMessageTokens, PI_0_CONTEXT_RULES, PI_1_CONTEXT_RULES } from "./pi-context-estimate.ts";
import { foldPiEvents, initialPiTelemetry } from "./pi-event-telemetry.ts";

const image = { type: "image", mimeType: "image/png", data: "AAAA" };

describe("Pi's context arithmetic, per generation", () => {
  it("counts a system message's content, sections and added tools (Pi 1.x), whatever the rules", () => {
    const system = {
      role: "system",
      content: "abcd",
      sections: { a: "12345678", gone: null },
      toolsAdded: [{ name: "x" }],
    };
    const chars = 4 + 8 + JSON.stringify([{ name: "x" }]).length;
    expect(estimateMessageTokens(system, PI_1_CONTEXT_RULES)).toBe(Math.ceil(chars / 4));
    expect(estimateMessageTokens(system, PI_0_CONTEXT_RULES)).toBe(Math.ceil(chars / 4));
  });

  it("counts an image in a user message as 4800 characters on Pi 1.x only; in tool results on both", () => {
    const user = { role: "user", content: [{ type: "text", text: "look" }, image] };
    expect(estimateMessageTokens(user, PI_0_CONTEXT_RULES)).toBe(1);
    expect(estimateMessageTokens(user, PI_1_CONTEXT_RULES)).toBe(Math.ceil((4 + 4800) / 4));
    const result = { role: "toolResult", content: [image] };
    expect(estimateMessageTokens(result, PI_0_CONTEXT_RULES)).toBe(1200);
    expect(estimateMessageTokens(result, PI_1_CONTEXT_RULES)).toBe(1200);
  });

  it("a stream that shows a system message is folded with Pi 1.x rules; one without keeps Pi 0.x rules", () => {
    const user = { type: "message_end", message: { role: "user", content: "hi" } };
    const system = { type: "message_end", message: { role: "system", content: "You are Pi." } };
    expect(foldPiEvents(initialPiTelemetry, [user]).contextRules).toBe(PI_0_CONTEXT_RULES);
    expect(foldPiEvents(initialPiTelemetry, [system, user]).contextRules).toBe(PI_1_CONTEXT_RULES);
  });
});
