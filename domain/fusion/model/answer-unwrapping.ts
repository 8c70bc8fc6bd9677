import { sha256Hex, utf8Bytes } from "../../shared/model/canonical-json.ts";

/**
 * How a JSON answer was unwrapped before it was judged. Only pure wrapping is removed — surrounding
 * whitespace, or exactly one Markdown fence holding the whole answer — so no byte of the answer itself
 * is ever guessed; the raw bytes stay in the response file and the unwrapped ones beside them.
 */
export interface Normalised {
  readonly kind: "fence" | "whitespace";
  readonly raw_sha256: string;
  readonly raw_bytes: number;
  readonly unwrapped_sha256: string;
  readonly unwrapped_bytes: number;
  /** The file in the run directory holding the unwrapped bytes. */
  readonly file: string;
}

/** One fence, opened with ``` or ```json on its own line and closed by ``` on the last line. */
const WHOLE_FENCE = /^```(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*```$/i;

/** The answer without its pure wrapping, or undefined when there is none to remove. */
export function unwrapPureWrapping(
  raw: string,
): { readonly kind: Normalised["kind"]; readonly text: string } | undefined {
  const trimmed = raw.trim();
  const fenced = WHOLE_FENCE.exec(trimmed);
  const inner = fenced?.[1];
  if (inner !== undefined && !inner.includes("```")) return { kind: "fence", text: inner.trim() };
  return trimmed === raw ? undefined : { kind: "whitespace", text: trimmed };
}

export function normalisedRecord(
  raw: string,
  unwrapped: { readonly kind: Normalised["kind"]; readonly text: string },
  file: string,
): Normalised {
  return {
    kind: unwrapped.kind,
    raw_sha256: sha256Hex(raw),
    raw_bytes: utf8Bytes(raw),
    unwrapped_sha256: sha256Hex(unwrapped.text),
    unwrapped_bytes: utf8Bytes(unwrapped.text),
    file,
  };
}
