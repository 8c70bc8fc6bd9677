import { afterEach, describe, expect, it } from "vitest";
import { FUSION_MODELS_SCHEMA_VERSION, type FusionModelsConfig } from "../domain/fusion/model/fusion-models-config.ts";
import type { FusionModelSource } from "../ports/fusion-model-source.ts";
import type { HostModel, HostSession } from "../ports/host-session.ts";

export const COVERS_PORT = "ports/fusion-model-source.ts";

/** One host's model source with a saved configuration (or none), and what that host can serve. */
export interface FusionModelWorld {
  readonly source: FusionModelSource;
  /** The session runs are chosen for; undefined on a host without sessions. */
  readonly session: HostSession | undefined;
  /** At least two models the host serves, with their limits, each with a window large enough for a Fusion stage. */
  readonly served: readonly HostModel[];
  /** The thinking level the host was set up with. */
  readonly thinking: string;
  /** The session's current model (hosts with sessions). */
  readonly current?: HostModel;
}

export interface FusionModelSubject {
  open(saved: FusionModelsConfig | undefined): Promise<FusionModelWorld>;
  close?(): Promise<void>;
}

const key = (m: HostModel) => `${m.provider}/${m.id}`;

export function describeFusionModelSourceContract(name: string, subject: FusionModelSubject): void {
  describe(`FusionModelSource contract: ${name}`, () => {
    afterEach(async () => subject.close?.());

    it("pins explicit selections to the served routes, with their limits and the host's thinking level", async () => {
      const probe = await subject.open(undefined);
      const [a, b] = probe.served;
      if (a === undefined || b === undefined) throw new Error("the subject must serve two models");
      await subject.close?.();
      const world = await subject.open({
        schema_version: FUSION_MODELS_SCHEMA_VERSION,
        candidates: [key(a), key(b), key(a)],
        evaluator: key(b),
        merger: key(a),
      });
      const chosen = await world.source.choose(world.session);
      if (!chosen.ok) throw new Error(chosen.error.message);
      const route = (m: HostModel) => ({
        provider: m.provider,
        model: m.id,
        contextWindow: m.contextWindow,
        maxTokens: m.maxTokens,
      });
      const { candidates, evaluator, merger } = chosen.value.models;
      expect(candidates.map((r) => r.slot)).toEqual(["candidate-1", "candidate-2", "candidate-3"]);
      expect(candidates[1]).toMatchObject({ selection: key(b), ...route(b) });
      expect(evaluator).toMatchObject({ slot: "evaluator", ...route(b) });
      expect(merger).toMatchObject({ slot: "merger", ...route(a) });
      expect(chosen.value.thinkingLevel).toBe(world.thinking);
    });

    it("refuses a selection the host does not serve, naming it, instead of falling back", async () => {
      const probe = await subject.open(undefined);
      const a = probe.served[0];
      if (a === undefined) throw new Error("the subject must serve a model");
      await subject.close?.();
      const world = await subject.open({
        schema_version: FUSION_MODELS_SCHEMA_VERSION,
        candidates: [key(a), "nowhere/no-such-model", key(a)],
        evaluator: key(a),
        merger: key(a),
      });
      const chosen = await world.source.choose(world.session);
      expect(chosen.ok ? "chosen" : chosen.error.code).toBe("model_unavailable");
      expect(chosen.ok ? "" : chosen.error.message).toContain("nowhere/no-such-model");
      expect((chosen.ok ? "" : chosen.error.message).split("No Fusion child was started").length - 1).toBe(1);
    });

    it("with nothing saved: a session's current model serves every slot; a host without one names every slot", async () => {
      const world = await subject.open(undefined);
      const chosen = await world.source.choose(world.session);
      if (world.session === undefined) {
        expect(chosen.ok ? "chosen" : chosen.error.code).toBe("explicit_model_required");
        expect(chosen.ok ? "" : chosen.error.message).toContain(
          "candidate-1, candidate-2, candidate-3, evaluator, merger",
        );
        return;
      }
      if (!chosen.ok) throw new Error(chosen.error.message);
      const current = world.current;
      if (current === undefined) throw new Error("a subject with a session names its current model");
      const all = [...chosen.value.models.candidates, chosen.value.models.evaluator, chosen.value.models.merger];
      expect(new Set(all.map((r) => `${r.provider}/${r.model}`))).toEqual(new Set([key(current)]));
      expect(all.every((r) => r.selection === "$current")).toBe(true);
    });
  });
}
