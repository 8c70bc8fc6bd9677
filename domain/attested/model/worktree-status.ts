/**
 * Reads `git status --porcelain=v1 -z --untracked-files=all` (paths relative to the repository root) and
 * decides whether a worktree is clean enough for an attested run.
 */

export interface StatusEntry {
  /** The two status letters, e.g. `??`, ` M`, `R `. */
  readonly status: string;
  readonly path: string;
  /** Renames and copies: the source path. */
  readonly from?: string;
}

export function parsePorcelainZ(text: string): readonly StatusEntry[] {
  const fields = text.split("\0");
  const entries: StatusEntry[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] ?? "";
    if (field.length < 4) continue;
    const status = field.slice(0, 2);
    const path = field.slice(3);
    if (status.includes("R") || status.includes("C")) {
      entries.push({ status, path, from: fields[i + 1] ?? "" });
      i++;
    } else {
      entries.push({ status, path });
    }
  }
  return entries;
}

export interface CleanlinessRules {
  /** The working directory relative to the repository root (`""` at the root, else ending in `/`). */
  readonly cwdPrefix: string;
  /** At finish: the report the run was asked to write (relative to cwd) may be new or changed. */
  readonly allowedReport?: string;
}

/**
 * Entries that make the worktree dirty. This package's own task artifacts (`<cwd>/.pi/tasks/`) never count:
 * the run's evidence is written there while it runs.
 */
export function blockingChanges(entries: readonly StatusEntry[], rules: CleanlinessRules): readonly StatusEntry[] {
  const artifacts = `${rules.cwdPrefix}.pi/tasks/`;
  const report = rules.allowedReport === undefined ? undefined : `${rules.cwdPrefix}${rules.allowedReport}`;
  return entries.filter((entry) => {
    const paths = entry.from === undefined ? [entry.path] : [entry.path, entry.from];
    if (paths.every((p) => p.startsWith(artifacts))) return false;
    return !(entry.from === undefined && entry.path === report);
  });
}

/** `a.txt (??), b.txt ( M), …` for messages, at most `limit` entries. */
export function describeChanges(entries: readonly StatusEntry[], limit = 8): string {
  const shown = entries
    .slice(0, limit)
    .map((e) => `${e.from === undefined ? e.path : `${e.from} -> ${e.path}`} (${e.status})`);
  return entries.length > limit ? `${shown.join(", ")}, and ${entries.length - limit} more` : shown.join(", ");
}
