import { describeHostSessionContract } from "../../contract-tests/host-session.contract.ts";
import { FakeHostSession } from "./fake-host-session.ts";

const MODEL = { provider: "faux", id: "faux-1", contextWindow: 128_000, maxTokens: 4096 };

describeHostSessionContract("FakeHostSession", {
  open: async () => ({
    session: new FakeHostSession({
      cwd: "/work/project",
      sessionId: "s-1",
      models: [MODEL, { provider: "sub", id: "s-1", contextWindow: 0, maxTokens: 0, oauth: true }],
      current: { provider: "faux", id: "faux-1" },
    }),
    cwd: "/work/project",
    apiKeyModel: MODEL,
    current: { provider: "faux", id: "faux-1" },
  }),
});
