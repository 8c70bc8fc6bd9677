import type { SourceMessage } from "../../projection/model/source-message.ts";
import { utf8Bytes } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { parseDelegateArguments, type DelegateArguments } from "./delegate-arguments.ts";
import { planDelegateBudget, routeCapacityTokens, type DelegateBudgetPlan } from "./delegate-budget.ts";
import { admissionError, type DelegateAdmissionCode, type DelegateError } from "./delegate-error.ts";
import { buildChildPrompt } from "./delegate-prompt.ts";
import { resolveRoute, type AvailableModel, type PinnedRoute, type RouteRef } from "./delegate-route.ts";
import { buildDelegateSeed, type BuiltSeed } from "./delegate-seed.ts";
import { checkHookContract } from "./hook-contract.ts";

/** Everything admission looks at, read by the service before it decides. Nothing here exists on disk yet. */
export interface AdmissionInput {
  /**
   * The hook-contract evidence of the child's release (recorded, or proved at launch); undefined when there is
   * none, with why the proof at launch could not run when it was tried.
   */
  readonly hookContract: { readonly evidence: unknown; readonly proofFailure?: string };
  /** The Pi version the child would run; undefined when unknown. */
  readonly childPiVersion: string | undefined;
  readonly rawArguments: unknown;
  /** Problems with the child's isolation (missing CLI, guard or sanitizer); empty when it can be isolated. */
  readonly isolationProblems: readonly string[];
  readonly currentRoute: RouteRef | undefined;
  readonly availableModels: readonly AvailableModel[];
  readonly conversation:
    | {
        readonly ok: true;
        readonly cwd: string;
        readonly systemPrompt: string;
        readonly messages: readonly SourceMessage[];
      }
    | { readonly ok: false; readonly message: string };
  readonly activeToolCallId: string;
}

export interface Admitted {
  readonly args: DelegateArguments;
  readonly route: PinnedRoute;
  readonly seed: BuiltSeed;
  /** The exact stdin bytes of the child, as text. */
  readonly childPrompt: string;
  readonly budget: DelegateBudgetPlan;
}

/**
 * The admission pipeline, in order: hook contract → arguments (capability, limits) → isolation →
 * route → seed projection → budget over the actual child prompt. Pure: a refusal here means no child,
 * no session and no artifact ever existed.
 */
export function admitDelegate(input: AdmissionInput): Result<Admitted, DelegateError<DelegateAdmissionCode>> {
  const contract = checkHookContract(
    input.hookContract.evidence,
    input.childPiVersion,
    input.hookContract.proofFailure,
  );
  if (!contract.ok) return contract;
  const args = parseDelegateArguments(input.rawArguments);
  if (!args.ok) return args;
  if (input.isolationProblems.length > 0) {
    return err(
      admissionError(
        "delegate_isolation_unsupported",
        `the child cannot be isolated: ${input.isolationProblems.join("; ")}.`,
        "reinstall the package (the delegate guard ships with it) and make sure the Pi CLI is reachable, then call again.",
        input.isolationProblems,
      ),
    );
  }
  const route = resolveRoute(args.value.route, input.currentRoute, input.availableModels);
  if (!route.ok) return route;
  if (!input.conversation.ok) {
    return err(
      admissionError(
        "seed_projection_failed",
        `the conversation could not be read: ${input.conversation.message}.`,
        "call again; if it persists, restate the needed context in the prompt of a fresh session.",
      ),
    );
  }
  const conversation = input.conversation;
  const seed = buildDelegateSeed({
    cwd: conversation.cwd,
    systemPrompt: conversation.systemPrompt,
    messages: conversation.messages,
    activeToolCallId: input.activeToolCallId,
    prompt: args.value.prompt,
    capability: args.value.capability,
    route: route.value,
    limits: args.value.limits,
    capacityTokens: routeCapacityTokens(route.value.contextWindow),
  });
  if (!seed.ok) return seed;
  const childPrompt = buildChildPrompt(seed.value.seedJson, seed.value.seed.limits);
  const budget = planDelegateBudget({
    route: route.value,
    systemPromptBytes: utf8Bytes(conversation.systemPrompt),
    childPromptBytes: utf8Bytes(childPrompt),
  });
  if (!budget.ok) return budget;
  return ok({ args: args.value, route: route.value, seed: seed.value, childPrompt, budget: budget.value });
}
