import type { ChildRetry, ChildStageSpec } from "../../ports/fusion-child-runner.ts";
import { ZERO_USAGE, type Usage } from "../../domain/shared/model/usage.ts";
import type { FakeStageScript } from "./fake-fusion-child-runner.ts";
import type { RealisticModel } from "./realistic-model.ts";
import type { ScriptedUsage } from "./scripted-model-server.ts";

/** Pi's own default, which the host sets explicitly for every child. */
export const CHILD_MAX_RETRIES = 3;

/**
 * A fake child's attempt as a real child Pi would run it against the realistic model: a transient
 * provider failure is retried by the child itself (a new call, up to CHILD_MAX_RETRIES), an answer cut at
 * the output limit ends the attempt with stopReason "length" and the partial text, anything else is
 * the answer. `calls` counts every model call per attempt prefix, retries included.
 */
export function realisticStageScripts(model: RealisticModel): {
  readonly script: (spec: ChildStageSpec, prompt: string) => FakeStageScript | undefined;
  readonly calls: ReadonlyMap<string, number>;
} {
  const calls = new Map<string, number>();
  const script = (spec: ChildStageSpec, prompt: string): FakeStageScript | undefined => {
    const retries: ChildRetry[] = [];
    for (let retry = 0; ; retry++) {
      calls.set(spec.prefix, (calls.get(spec.prefix) ?? 0) + 1);
      const answer = model.answer(spec.systemPrompt, prompt, spec.route.model, `${spec.prefix}#${retry}`);
      if (answer === undefined) return undefined;
      const usage = usageOf(answer.usage);
      const retried = retries.length === 0 ? {} : { retries: [...retries] };
      if (answer.kind === "transient") {
        if (retry < CHILD_MAX_RETRIES) {
          retries.push({ attempt: retry + 1, error: `scripted ${answer.failure}`, usage: ZERO_USAGE });
          continue;
        }
        const message = `the provider failed (${answer.failure}) after ${CHILD_MAX_RETRIES} retries`;
        return { fail: { code: "child_exit_failed", message }, ...retried };
      }
      if (answer.finishReason === "length") {
        const message = 'the Fusion child\'s final message ended with stopReason "length"';
        const partialText = answer.text;
        return { fail: { code: "child_exit_failed", message, partialText, usage, stopReason: "length" }, ...retried };
      }
      return { answer: answer.text, usage, ...retried };
    }
  };
  return { script, calls };
}

function usageOf(usage: ScriptedUsage | undefined): Usage {
  if (usage === undefined) return ZERO_USAGE;
  const total = usage.input + usage.output;
  return { ...ZERO_USAGE, input: usage.input, output: usage.output, totalTokens: total };
}
