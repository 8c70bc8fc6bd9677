/**
 * One stage's forecast against its own route: the input-only bound (known prompt text plus the
 * request) decides; the worst case (plus every embedded output contract at its cap) only advises.
 */
import { utilisationBp } from "./budget-policy.ts";
import { STAGE_DEFINITIONS, type EmbeddedContract, type FusionStage } from "./fusion-stages.ts";
import { estimateProfiled, type InputTokenEstimate, type OutputContractSegment, type ProfiledSegment } from "./input-token-estimator.ts";
import { familyOfProvider } from "./estimator-calibration.ts";
import type { FusionRoute, RouteCapacity, RouteModel } from "./route-capacity.ts";
import { profileText, type TextProfile } from "./text-profile.ts";

/** Renders the stage prompt with empty embedded-output slots and without the request. */
export type RenderEmptyPrompt = () => string | Uint8Array;

export type RequestRendering = "json_string" | "text";

/** A stage prompt rendered once and profiled once, reused by every re-plan. */
export interface StageMaterial {
  readonly stage: FusionStage;
  readonly emptyBytes: number;
  readonly emptyProfile: TextProfile;
}

export interface PreparedRequest {
  readonly text: string;
  readonly rendering: RequestRendering;
  readonly bytes: number;
  readonly profile: TextProfile;
}

export type Unavailable = "unavailable";

export interface ForecastFigures {
  readonly bytes: number;
  readonly tokens: number;
  readonly utilisation_bp: number | Unavailable;
  readonly headroom_tokens: number | Unavailable;
}

export interface StageForecast {
  readonly stage: FusionStage;
  readonly route: FusionRoute;
  readonly mandatory: boolean;
  readonly provider: string;
  readonly model_id: string;
  readonly context_window: number | Unavailable;
  readonly allowance_tokens: number | Unavailable;
  readonly status: "fits" | "blocked" | "capacity_unknown";
  readonly input_only: ForecastFigures;
  readonly worst_case: ForecastFigures;
  readonly composition: {
    readonly empty_prompt_bytes: number;
    readonly request_bytes: number;
    readonly request_rendering: RequestRendering;
    readonly embedded_contracts: readonly EmbeddedContract[];
  };
  readonly estimate: InputTokenEstimate;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

export function prepareStage(stage: FusionStage, renderEmpty: RenderEmptyPrompt): StageMaterial {
  const rendered = renderEmpty();
  const text = typeof rendered === "string" ? rendered : decoder.decode(rendered);
  const emptyProfile = profileText(text);
  return { stage, emptyBytes: emptyProfile.bytes.total, emptyProfile };
}

export function prepareRequest(text: string, rendering: RequestRendering): PreparedRequest {
  const rendered = rendering === "json_string" ? JSON.stringify(text) : text;
  const profile = profileText(rendered);
  return { text, rendering, bytes: profile.bytes.total, profile };
}

export function forecastStage(material: StageMaterial, request: PreparedRequest, model: RouteModel, capacity: RouteCapacity | undefined): StageForecast {
  const definition = STAGE_DEFINITIONS[material.stage];
  const known: ProfiledSegment[] = [
    { kind: "known_text", label: "empty_prompt", profile: material.emptyProfile },
    { kind: request.rendering === "json_string" ? "known_json" : "known_text", label: "request", profile: request.profile },
  ];
  const contracts: OutputContractSegment[] = definition.embeds.map((c) => ({ kind: "unknown_output_contract", label: c.label, bytes: c.bytes }));
  const estimate = estimateProfiled({ family: familyOfProvider(model.provider), modelId: model.modelId }, [...known, ...contracts]);
  const allowance = capacity?.capacity_tokens;
  const figures = (bytes: number, tokens: number): ForecastFigures => ({
    bytes,
    tokens,
    utilisation_bp: allowance === undefined ? "unavailable" : utilisationBp(tokens, allowance),
    headroom_tokens: allowance === undefined ? "unavailable" : allowance - tokens,
  });
  return {
    stage: material.stage,
    route: definition.route,
    mandatory: definition.mandatory,
    provider: model.provider,
    model_id: model.modelId,
    context_window: capacity?.context_window ?? "unavailable",
    allowance_tokens: allowance ?? "unavailable",
    status: allowance === undefined ? "capacity_unknown" : estimate.input_only_tokens > allowance ? "blocked" : "fits",
    input_only: figures(estimate.known_bytes, estimate.input_only_tokens),
    worst_case: figures(estimate.bytes, estimate.tokens),
    composition: {
      empty_prompt_bytes: material.emptyBytes,
      request_bytes: request.bytes,
      request_rendering: request.rendering,
      embedded_contracts: definition.embeds,
    },
    estimate,
  };
}
