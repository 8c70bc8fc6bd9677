import { describe, expect, it } from "vitest";
import type { HostModel, HostSession } from "../ports/host-session.ts";

export const COVERS_PORT = "ports/host-session.ts";

/** What the subject's host was set up with, to hold the session's answers against. */
export interface HostSessionSetup {
  readonly session: HostSession;
  readonly cwd: string;
  /** A model the host serves with an API key (not OAuth), with the limits it was configured with. */
  readonly apiKeyModel: HostModel;
  /** The model the session talks to. */
  readonly current: { readonly provider: string; readonly id: string };
}

export interface HostSessionSubject {
  open(): Promise<HostSessionSetup>;
  close?(): Promise<void>;
}

const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh"];

export function describeHostSessionContract(name: string, subject: HostSessionSubject): void {
  describe(`HostSession contract: ${name}`, () => {
    const withSession = (check: (setup: HostSessionSetup) => void) => async () => {
      const setup = await subject.open();
      try {
        check(setup);
      } finally {
        await subject.close?.();
      }
    };

    it(
      "names the session's directory and a stable, non-empty session id",
      withSession(({ session, cwd }) => {
        expect(session.cwd).toBe(cwd);
        expect(session.sessionId).toMatch(/\S/);
        expect(session.sessionId).toBe(session.sessionId);
      }),
    );

    it(
      "lists the models it can serve with their configured limits, and the current one",
      withSession(({ session, apiKeyModel, current }) => {
        const models = session.availableModels();
        expect(models).toContainEqual(apiKeyModel);
        for (const model of models) {
          expect(model.provider).toMatch(/\S/);
          expect(model.id).toMatch(/\S/);
          expect(model.contextWindow).toBeGreaterThanOrEqual(0);
          expect(model.maxTokens).toBeGreaterThanOrEqual(0);
        }
        expect(session.currentModel()).toEqual(current);
      }),
    );

    it(
      "says how a known model is reached, and nothing for a model it does not know",
      withSession(({ session, apiKeyModel }) => {
        expect(session.usesOAuth(apiKeyModel.provider, apiKeyModel.id)).toBe(false);
        expect(session.usesOAuth("no-such-provider", "no-such-model")).toBeUndefined();
        expect(session.usesOAuth(apiKeyModel.provider, "no-such-model")).toBeUndefined();
      }),
    );

    it(
      "reports one of the thinking levels, and a conversation of this directory",
      withSession(({ session, cwd }) => {
        expect(THINKING_LEVELS).toContain(session.thinkingLevel());
        const captured = session.conversation.capture();
        expect(captured.ok && captured.value.cwd).toBe(cwd);
      }),
    );
  });
}
