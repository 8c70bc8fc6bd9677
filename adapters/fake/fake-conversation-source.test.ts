import { describeConversationSourceContract } from "../../contract-tests/conversation-source.contract.ts";
import { FakeConversationSource } from "./fake-conversation-source.ts";

describeConversationSourceContract("FakeConversationSource", {
  host(script) {
    const source = new FakeConversationSource(script, script.branch);
    return { source, append: (message) => source.append(message) };
  },
  broken: () => new FakeConversationSource({ cwd: "/w", systemPrompt: "", unreadable: "the session was replaced" }),
});
