import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";

export type LookupError = TypedError<"task_id_required" | "task_unknown" | "task_id_ambiguous">;

/** Exact id first, then a unique prefix; anything else is a loud error listing what matched. */
export function resolveTaskId(query: string, ids: readonly string[]): Result<string, LookupError> {
  const q = query.trim();
  if (q.length === 0)
    return err({
      code: "task_id_required",
      message: "Task ID is required (task_id_required). List tasks with bg_status.",
    });
  if (ids.includes(q)) return ok(q);
  const matches = ids.filter((id) => id.startsWith(q));
  if (matches.length === 1) return ok(matches[0] as string);
  if (matches.length === 0)
    return err({
      code: "task_unknown",
      message: `Unknown background task ID: ${q} (task_unknown). List tasks with bg_status.`,
    });
  return err({
    code: "task_id_ambiguous",
    message: `Task ID prefix '${q}' is ambiguous (task_id_ambiguous); it matches ${matches.join(", ")}. Use more characters.`,
  });
}
