import type { ConversationSource } from "./conversation-source.ts";

/** A model the host can serve now (its credentials are configured), with the limits it reports. */
export interface HostModel {
  readonly provider: string;
  readonly id: string;
  /** Tokens; 0 when the host does not know it. */
  readonly contextWindow: number;
  readonly maxTokens: number;
}

/**
 * The agent session a tool call was made in, on hosts that have one (Pi). A host without a conversation
 * (MCP) hands its calls none, and serves only the tools that need none.
 */
export interface HostSession {
  readonly cwd: string;
  readonly sessionId: string;
  /** The conversation as the model sees it now. */
  readonly conversation: ConversationSource;
  availableModels(): readonly HostModel[];
  /** The model this session talks to, if one is selected. */
  currentModel(): { readonly provider: string; readonly id: string } | undefined;
  /** The session's thinking level, as the host names it (`off`, `low`, …). */
  thinkingLevel(): string;
  /** Whether the host reaches a model it knows through OAuth; undefined for a model it does not know. */
  usesOAuth(provider: string, model: string): boolean | undefined;
}
