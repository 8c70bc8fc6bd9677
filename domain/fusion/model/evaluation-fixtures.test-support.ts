import { EVALUATION_SCHEMA_ID, type FusionEvaluation } from "./evaluation-schema.ts";

/** A valid brainstorm evaluation for tests to start from (and mutate one field at a time). */
export function validEvaluation(): FusionEvaluation {
  const assess = (id: "A" | "B" | "C") => ({
    candidate_id: id,
    summary: `Answer ${id} proposes a cache.`,
    strengths: [`${id} is concrete`],
    limitations: [],
    useful_contributions: [`${id} measures hit rate`],
    risks: [],
  });
  return {
    schema_version: EVALUATION_SCHEMA_ID,
    candidate_assessments: [assess("A"), assess("B"), assess("C")],
    agreements: ["A cache helps."],
    conflicts: [
      {
        topic: "eviction",
        positions: [
          { candidate_id: "A", position: "LRU" },
          { candidate_id: "C", position: "TTL" },
        ],
        resolution: "Use LRU with a TTL cap.",
      },
    ],
    synthesis_plan: {
      must_include: [{ candidate_id: "B", contribution: "hit-rate metric" }],
      must_resolve: ["eviction"],
      must_avoid: ["global locks"],
    },
  };
}

export const validEvaluationText = (): string => JSON.stringify(validEvaluation(), null, 2);
