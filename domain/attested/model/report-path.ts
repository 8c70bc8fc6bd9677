import { ok, type Result, type TypedError } from "../../shared/model/result.ts";
import { refusal } from "./attested-refusal.ts";

/**
 * The report an attested run must leave behind: a relative path that stays inside the working directory
 * and is neither Git's nor Pi's own state. Pure string work; symlinks are checked against the real
 * filesystem when the run ends.
 */

export type ReportPathError = TypedError<"attested_report_path_refused">;

/** Returns the path with `.` and `..` resolved and separators collapsed, e.g. `docs/./x/../report.md` → `docs/report.md`. */
export function normalizeReportPath(path: string): Result<string, ReportPathError> {
  const refuse = (why: string) => refusal("attested_report_path_refused", `reportPath '${path}' ${why}`);
  if (path.includes("\0")) return refuse("contains a NUL character");
  if (path.includes("\\")) return refuse("contains a backslash; use '/' as the separator");
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path) || path.startsWith("~"))
    return refuse("must be relative to the working directory");
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.pop() === undefined) return refuse("escapes the working directory");
      continue;
    }
    segments.push(segment);
  }
  if (segments.length === 0) return refuse("names the working directory itself, not a file");
  if (segments.includes(".git")) return refuse("is under .git/");
  if (segments[0] === ".pi") return refuse("is under .pi/");
  return ok(segments.join("/"));
}

/** Whether `path` (a realpath) is `dir` or inside it; both are absolute POSIX paths. */
export function isInside(path: string, dir: string): boolean {
  const base = dir.endsWith("/") ? dir : `${dir}/`;
  return path.startsWith(base);
}
