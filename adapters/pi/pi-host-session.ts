import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { HostSession } from "../../ports/host-session.ts";
import { createPiConversationSource } from "./pi-conversation-source.ts";

/** The Pi session a tool call runs in: its conversation, its model registry and thinking level, each read when asked. */
export function piHostSession(pi: Pick<ExtensionAPI, "getThinkingLevel">, ctx: ExtensionContext): HostSession {
  return {
    get cwd() {
      return ctx.cwd;
    },
    get sessionId() {
      return ctx.sessionManager.getSessionId();
    },
    conversation: createPiConversationSource(ctx),
    availableModels: () =>
      ctx.modelRegistry
        .getAvailable()
        .map((m) => ({ provider: m.provider, id: m.id, contextWindow: m.contextWindow, maxTokens: m.maxTokens })),
    currentModel: () => (ctx.model === undefined ? undefined : { provider: ctx.model.provider, id: ctx.model.id }),
    thinkingLevel: () => pi.getThinkingLevel(),
    usesOAuth: (provider, model) => {
      const found = ctx.modelRegistry.find(provider, model);
      return found === undefined ? undefined : ctx.modelRegistry.isUsingOAuth(found);
    },
  };
}
