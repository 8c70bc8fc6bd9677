import { deviate, drawDeviation, type DeviatedAnswer, type DeviationKind } from "./realistic-deviations.ts";
import { fusionRoleAnswers, isRepairPrompt, type RoleAnswer } from "./scripted-fusion-roles.ts";
import type { ScriptedUsage } from "./scripted-model-server.ts";

export interface RealisticModelOptions {
  readonly seed: number;
  /** Per call, the chance the answer deviates (each kind then equally likely). */
  readonly probability: number;
  /** The reviewer model that reports the finding (default: the first to review). */
  readonly finder?: string;
}

/** One model call as the realistic model answered it. */
export interface RealisticCall {
  readonly key: string;
  /** The kind drawn for this call, if it deviated, and whether it could touch this answer. */
  readonly kind: DeviationKind | undefined;
  readonly applied: boolean;
  readonly repair: boolean;
}

export type RealisticAnswer = DeviatedAnswer & { readonly usage?: ScriptedUsage };

/**
 * The Fusion roles answered the way real models often answer: each call, seeded by (seed, key), may
 * deviate. A repair prompt (it carries the rejected reply as `invalid_output`) is answered as the
 * model that wrote that reply would: with the answer it meant to give, which may deviate again.
 * Returns undefined for requests that are no Fusion stage, and for a repair of a reply it never gave.
 */
export class RealisticModel {
  readonly calls: RealisticCall[] = [];
  readonly #answers: ReturnType<typeof fusionRoleAnswers>;
  readonly #meant = new Map<string, RoleAnswer>();

  constructor(private readonly options: RealisticModelOptions) {
    this.#answers = fusionRoleAnswers(options.finder === undefined ? {} : { finder: options.finder });
  }

  answer(system: string, prompt: string, model: string, key: string): RealisticAnswer | undefined {
    const rejected = invalidOutputOf(prompt);
    const meant = rejected === undefined ? this.#answers(system, prompt, model) : this.#meant.get(rejected);
    if (meant === undefined) return undefined;
    const kind = drawDeviation(this.options.seed, key, this.options.probability);
    const deviated = kind === undefined ? undefined : deviate(kind, meant.role, meant.text);
    this.calls.push({ key, kind, applied: deviated !== undefined, repair: rejected !== undefined });
    const sent: DeviatedAnswer = deviated ?? { kind: "answer", text: meant.text };
    if (sent.kind === "answer") this.#meant.set(sent.text, meant);
    return meant.usage === undefined ? sent : { ...sent, usage: meant.usage };
  }
}

/** The rejected reply a repair prompt quotes, from the section document that holds it. */
function invalidOutputOf(prompt: string): string | undefined {
  if (!isRepairPrompt(prompt)) return undefined;
  for (const line of prompt.split("\n")) {
    if (!line.startsWith("{") || !line.includes('"invalid_output"')) continue;
    const document = JSON.parse(line) as { invalid_output?: unknown };
    if (typeof document.invalid_output === "string") return document.invalid_output;
  }
  return undefined;
}
