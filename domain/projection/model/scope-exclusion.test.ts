import { describe, expect, it } from "vitest";
import { assistant, call, result, text, user } from "../fixtures/message-builders.ts";
import { excludeActiveCallMessage } from "./scope-exclusion.ts";

describe("scope exclusion of the active call's message", () => {
  const batch = assistant(text("both"), call("sib", "bash", {}), call("act", "bg_delegate", {}));

  it("cuts the carrying message and every sibling result after it", () => {
    const before = [user("q"), assistant(text("earlier"))];
    const scoped = excludeActiveCallMessage([...before, batch, result("sib", "bash", text("r"))], "act");
    expect(scoped).toEqual({ messages: before, activeCallMessageExcluded: true });
  });

  it("gives sibling calls of one batch the same history whichever runs first", () => {
    const early = excludeActiveCallMessage([user("q"), batch], "act");
    const late = excludeActiveCallMessage([user("q"), batch, result("act", "bg_delegate", text("launched"))], "sib");
    expect(late.messages).toEqual(early.messages);
  });

  it("matches only a tool call in an assistant message, by id", () => {
    const messages = [user("q"), result("act", "bg_delegate", text("r")), assistant(call("other", "act", {}))];
    expect(excludeActiveCallMessage(messages, "act")).toEqual({ messages, activeCallMessageExcluded: false });
  });

  it("uses the last message carrying the id", () => {
    const messages = [assistant(call("act", "t", {})), user("between"), batch];
    expect(excludeActiveCallMessage(messages, "act").messages).toHaveLength(2);
  });
});
