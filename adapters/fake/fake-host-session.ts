import { ok } from "../../domain/shared/model/result.ts";
import type { ConversationSource } from "../../ports/conversation-source.ts";
import type { HostModel, HostSession } from "../../ports/host-session.ts";

export interface FakeHostSessionOptions {
  readonly cwd: string;
  readonly sessionId: string;
  readonly models: readonly (HostModel & { readonly oauth?: boolean })[];
  readonly current?: { readonly provider: string; readonly id: string };
  readonly thinking?: string;
  /** Default: an empty conversation in `cwd`. */
  readonly conversation?: ConversationSource;
}

/** A host session as plain data: the models it serves (each with how it is reached), the current one. */
export class FakeHostSession implements HostSession {
  readonly cwd: string;
  readonly sessionId: string;
  readonly conversation: ConversationSource;

  constructor(private readonly options: FakeHostSessionOptions) {
    this.cwd = options.cwd;
    this.sessionId = options.sessionId;
    this.conversation = options.conversation ?? {
      capture: () => ok({ cwd: options.cwd, systemPrompt: "", messages: [] }),
    };
  }

  availableModels(): readonly HostModel[] {
    return this.options.models.map(({ provider, id, contextWindow, maxTokens }) => ({
      provider,
      id,
      contextWindow,
      maxTokens,
    }));
  }

  currentModel(): { readonly provider: string; readonly id: string } | undefined {
    return this.options.current;
  }

  thinkingLevel(): string {
    return this.options.thinking ?? "off";
  }

  usesOAuth(provider: string, model: string): boolean | undefined {
    const found = this.options.models.find((m) => m.provider === provider && m.id === model);
    return found === undefined ? undefined : found.oauth === true;
  }
}
