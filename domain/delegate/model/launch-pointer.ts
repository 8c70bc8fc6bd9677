import { delegateRoot, runDirName, type DelegateLocation } from "./delegate-artifacts.ts";

/**
 * `.pi/delegate/launches/<taskId>.json` names the run directory of a launch, which carries the launching
 * process's pid: a later Pi process (another pid, maybe another session) finds the delegate through it. It is
 * a file under `.pi/`, so it is trusted only to name a `<session>-<pid>` directory beside it; what is served
 * from there is still verified against that directory's adjudication record.
 */
export const launchesDir = (baseDir: string): string => `${delegateRoot(baseDir)}/launches`;

export const launchPointerPath = (baseDir: string, taskId: string): string => `${launchesDir(baseDir)}/${taskId}.json`;

export interface LaunchPointer {
  readonly v: 1;
  readonly task_id: string;
  readonly run_dir: string;
}

export const launchPointerOf = (location: DelegateLocation, taskId: string): LaunchPointer => ({
  v: 1,
  task_id: taskId,
  run_dir: runDirName(location),
});

/** What `runDirName` can produce: a sanitized session id (no leading dot) and a pid. */
const RUN_DIR_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,119}-[0-9]{1,10}$/;

/** The run directory the pointer names, or why it cannot be trusted. */
export function runDirFromPointer(
  bytes: Uint8Array,
  baseDir: string,
  taskId: string,
): { readonly dir: string } | { readonly why: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return { why: "it is not UTF-8 JSON" };
  }
  const { v, task_id, run_dir } = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<
    string,
    unknown
  >;
  if (v !== 1) return { why: "its version is not 1" };
  if (task_id !== taskId) return { why: `it names another task (${JSON.stringify(task_id)})` };
  if (typeof run_dir !== "string" || !RUN_DIR_NAME.test(run_dir))
    return { why: "its run_dir is not the name of a <session>-<pid> directory" };
  return { dir: `${delegateRoot(baseDir)}/${run_dir}/${taskId}` };
}
