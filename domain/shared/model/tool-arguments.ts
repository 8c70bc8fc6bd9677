import type { TSchema } from "typebox";
import { Value } from "typebox/value";
import { err, ok, type Result } from "./result.ts";

export interface InvalidArguments {
  readonly code: "invalid_arguments";
  readonly message: string;
  readonly tool: string;
  readonly problems: readonly string[];
}

/** Per-field advice appended to a problem so the model can fix its next call. */
export type FieldHints = Readonly<Record<string, string>>;

const MAX_PROBLEMS = 12;

/**
 * Checks raw tool arguments against a closed TypeBox schema and explains every problem.
 * Nothing is coerced here: a string "true" is not a boolean.
 */
export function checkArguments<T>(
  tool: string,
  schema: TSchema,
  raw: unknown,
  hints: FieldHints = {},
): Result<T, InvalidArguments> {
  if (!Value.Check(schema, raw)) return err(invalidArguments(tool, describeProblems(schema, raw, hints)));
  const withNul = nulPaths(raw, "");
  if (withNul.length > 0)
    return err(
      invalidArguments(
        tool,
        withNul.map(
          (path) => `'${path}' contains a NUL byte, which no command, file name or child argument can hold — remove it`,
        ),
      ),
    );
  return ok(raw as T);
}

/** Where a NUL byte hides in the arguments (`scope[2]`, `verification.evidence[0].check`, …). */
function nulPaths(value: unknown, path: string): string[] {
  if (typeof value === "string") return value.includes("\0") ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => nulPaths(item, `${path}[${i}]`));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => nulPaths(item, path === "" ? key : `${path}.${key}`));
}

export function invalidArguments(tool: string, problems: readonly string[]): InvalidArguments {
  const shown = problems.slice(0, MAX_PROBLEMS);
  const more = problems.length > shown.length ? [`(${problems.length - shown.length} more problems not shown)`] : [];
  const lines = [...shown, ...more].map((p) => `- ${p}`).join("\n");
  return {
    code: "invalid_arguments",
    tool,
    problems,
    message: `${tool}: invalid arguments (invalid_arguments). Nothing was started or written.\n${lines}`,
  };
}

function describeProblems(schema: TSchema, raw: unknown, hints: FieldHints): string[] {
  const problems: string[] = [];
  for (const error of Value.Errors(schema, raw)) {
    if (error.keyword === "boolean" && error.schemaPath.endsWith("additionalProperties")) continue;
    problems.push(describe(error.keyword, error.instancePath, error.params, error.message, hints));
  }
  return problems.length > 0 ? problems : ["arguments do not match the schema"];
}

function describe(keyword: string, path: string, params: unknown, message: string, hints: FieldHints): string {
  const p = (params ?? {}) as Record<string, unknown>;
  if (keyword === "additionalProperties") {
    const keys = (p.additionalProperties as string[] | undefined) ?? [];
    return `unknown ${keys.length === 1 ? "key" : "keys"} ${keys.map((k) => `'${k}'`).join(", ")}: remove ${keys.length === 1 ? "it" : "them"}`;
  }
  if (keyword === "required") {
    const keys = (p.requiredProperties as string[] | undefined) ?? [];
    return keys.map((k) => `missing required '${k}'${hintFor(k, hints)}`).join("; ");
  }
  const field = path.replace(/^\//, "").replace(/\//g, ".") || "arguments";
  const what = keyword === "pattern" && p.pattern === "\\S" ? "must not be empty or whitespace" : message;
  return `'${field}' ${what}${hintFor(field, hints)}`;
}

function hintFor(field: string, hints: FieldHints): string {
  const hint = hints[field];
  return hint === undefined ? "" : ` — ${hint}`;
}
