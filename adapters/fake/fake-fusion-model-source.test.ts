import { describeFusionModelSourceContract } from "../../contract-tests/fusion-model-source.contract.ts";
import type { HostModel } from "../../ports/host-session.ts";
import { FakeFusionModelSource } from "./fake-fusion-model-source.ts";
import { FakeHostSession } from "./fake-host-session.ts";

const served: HostModel[] = [
  { provider: "p", id: "small", contextWindow: 64_000, maxTokens: 4_096 },
  { provider: "q", id: "large", contextWindow: 200_000, maxTokens: 8_192 },
];

describeFusionModelSourceContract("FakeFusionModelSource with a session", {
  async open(saved) {
    const current = served[0];
    if (current === undefined) throw new Error("a served model");
    const session = new FakeHostSession({
      cwd: "/work",
      sessionId: "s",
      models: served,
      current: { provider: current.provider, id: current.id },
      thinking: "low",
    });
    return {
      source: new FakeFusionModelSource({ ...(saved === undefined ? {} : { saved }), served }),
      session,
      served,
      thinking: "low",
      current,
    };
  },
});

describeFusionModelSourceContract("FakeFusionModelSource without a session", {
  async open(saved) {
    return {
      source: new FakeFusionModelSource({ ...(saved === undefined ? {} : { saved }), served, thinking: "xhigh" }),
      session: undefined,
      served,
      thinking: "xhigh",
    };
  },
});
