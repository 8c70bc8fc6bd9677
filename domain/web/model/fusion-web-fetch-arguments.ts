import { Type, type Static } from "typebox";
import { ok, type Result } from "../../shared/model/result.ts";
import { stringEnum } from "../../shared/model/string-enum.ts";
import { checkArguments, type InvalidArguments } from "../../shared/model/tool-arguments.ts";
import { MAX_URL_LENGTH } from "./web-url.ts";

export const FUSION_WEB_FETCH_TOOL = "fusion_web_fetch";

export const EXTRACT_FORMATS = ["markdown", "text"] as const;

export const FusionWebFetchArgumentsSchema = Type.Object(
  {
    url: Type.String({
      pattern: "\\S",
      maxLength: MAX_URL_LENGTH,
      description: "Absolute http:// or https:// URL of a public web page",
    }),
    extract: Type.Optional(
      stringEnum(EXTRACT_FORMATS, { description: "markdown (default: keeps links, headings, tables, code) or text" }),
    ),
  },
  { additionalProperties: false },
);

export type FusionWebFetchArguments = Static<typeof FusionWebFetchArgumentsSchema>;

export interface NormalisedFetchArguments {
  readonly url: string;
  readonly extract: (typeof EXTRACT_FORMATS)[number];
}

const HINTS = {
  url: "pass one absolute public http(s) URL, e.g. https://example.org/docs",
  extract: `one of ${EXTRACT_FORMATS.join(", ")}; omit it for markdown`,
};

/** Closed schema, nothing coerced; the URL is trimmed and Markdown is the default extraction. */
export function normaliseFetchArguments(raw: unknown): Result<NormalisedFetchArguments, InvalidArguments> {
  const checked = checkArguments<FusionWebFetchArguments>(
    FUSION_WEB_FETCH_TOOL,
    FusionWebFetchArgumentsSchema,
    raw,
    HINTS,
  );
  if (!checked.ok) return checked;
  return ok({ url: checked.value.url.trim(), extract: checked.value.extract ?? "markdown" });
}
