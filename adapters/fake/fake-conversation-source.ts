import type { SourceMessage } from "../../domain/projection/model/source-message.ts";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type {
  ConversationCaptureError,
  ConversationSnapshot,
  ConversationSource,
} from "../../ports/conversation-source.ts";

/** A host conversation that is just its current branch; built with `unreadable`, every capture fails. */
export class FakeConversationSource implements ConversationSource {
  readonly #messages: SourceMessage[];

  constructor(
    private readonly host: { readonly cwd: string; readonly systemPrompt: string; readonly unreadable?: string },
    messages: readonly SourceMessage[] = [],
  ) {
    this.#messages = [...messages];
  }

  append(message: SourceMessage): void {
    this.#messages.push(message);
  }

  capture(): Result<ConversationSnapshot, ConversationCaptureError> {
    if (this.host.unreadable !== undefined)
      return err({
        code: "context_capture_failed",
        message: `could not read the conversation: ${this.host.unreadable}`,
      });
    return ok({ cwd: this.host.cwd, systemPrompt: this.host.systemPrompt, messages: [...this.#messages] });
  }
}
