import { CANDIDATE_LETTERS, type CandidateLetter } from "./evaluation-schema.ts";
import type { CandidateSlot } from "./fusion-workflow.ts";

/** Which slot hides behind which letter. It goes into the manifest only, never into a prompt. */
export type AnonymisationMap = Readonly<Record<CandidateLetter, CandidateSlot>>;

export interface BlindCandidate {
  readonly candidate_id: CandidateLetter;
  readonly answer: string;
}

export interface Anonymised {
  readonly map: AnonymisationMap;
  /** In the order shown to the evaluator: A, B, C. */
  readonly candidates: readonly BlindCandidate[];
}

/**
 * `order` is a random permutation of the slots (from the RandomSource): the first slot in it
 * becomes A, the second B, the third C. Anything but a permutation of 1..3 is a bug.
 */
export function anonymise(
  answers: Readonly<Record<CandidateSlot, string>>,
  order: readonly CandidateSlot[],
): Anonymised {
  const sorted = [...order].sort();
  if (order.length !== 3 || sorted[0] !== 1 || sorted[1] !== 2 || sorted[2] !== 3) {
    throw new Error(`anonymisation order must be a permutation of 1, 2, 3; got [${order.join(", ")}]`);
  }
  const [a, b, c] = order as readonly [CandidateSlot, CandidateSlot, CandidateSlot];
  const map: AnonymisationMap = { A: a, B: b, C: c };
  const candidates = CANDIDATE_LETTERS.map((letter) => ({ candidate_id: letter, answer: answers[map[letter]] }));
  return { map, candidates };
}

/** Inverse lookup for the manifest and for tests. */
export function letterOfSlot(map: AnonymisationMap, slot: CandidateSlot): CandidateLetter {
  const letter = CANDIDATE_LETTERS.find((l) => map[l] === slot);
  if (letter === undefined) throw new Error(`slot ${slot} is not in the anonymisation map`);
  return letter;
}
