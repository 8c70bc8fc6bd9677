import { sanitizeSessionId } from "../../tasks/model/runtime-settings.ts";

/** File names inside `.pi/delegate/<session>-<pid>/<taskId>/`. */
export const DELEGATE_ARTIFACT = {
  seed: "seed.json",
  childPrompt: "child-prompt.txt",
  ledger: "context-omission-ledger.json",
  budgetPlan: "budget-plan.json",
  manifest: "manifest.json",
  childSessionDir: "child-session",
  spillDir: "spill",
  /** Written by the child: its rename is the commit point. */
  result: "result.json",
  /** Written by the child when it latched a failure. */
  childTerminal: "child-terminal.json",
  /** Written by the parent after the child exited. */
  outcome: "outcome.json",
  /** The verified answer bytes, written by the parent for artifact delivery. */
  answer: "answer.md",
  /** Written by the parent the first time bg_result served the accepted answer; pruning waits for it. */
  fetched: "result-fetched.json",
  stdoutTail: "child-stdout.tail.txt",
  stderrTail: "child-stderr.tail.txt",
} as const;

/** The private parent→child protocol variables. */
export const DELEGATE_ENV = {
  artifactDir: "PI_BG_DELEGATE_ARTIFACT_DIR",
  seedPath: "PI_BG_DELEGATE_SEED_PATH",
  seedSha256: "PI_BG_DELEGATE_SEED_SHA256",
  taskId: "PI_BG_DELEGATE_TASK_ID",
  launchNonce: "PI_BG_DELEGATE_LAUNCH_NONCE",
} as const;

export interface DelegateLocation {
  /** The project directory that holds `.pi/` (the session's cwd), absolute. */
  readonly baseDir: string;
  readonly sessionId: string;
  readonly pid: number;
}

export function delegateRoot(baseDir: string): string {
  return `${baseDir.endsWith("/") ? baseDir.slice(0, -1) : baseDir}/.pi/delegate`;
}

/** `<session>-<pid>`: the directory of one parent process's delegates in one session. */
export const runDirName = (location: DelegateLocation): string =>
  `${sanitizeSessionId(location.sessionId)}-${location.pid}`;

export function delegateRunDir(location: DelegateLocation, taskId: string): string {
  return `${delegateRoot(location.baseDir)}/${runDirName(location)}/${taskId}`;
}

export const artifactPath = (dir: string, name: string): string => `${dir}/${name}`;

/** Spill files are named by the SHA-256 of their bytes. */
export const spillName = (sha256: string): string => `${DELEGATE_ARTIFACT.spillDir}/${sha256}.bin`;
export const SPILL_NAME_PATTERN = /^spill\/[0-9a-f]{64}\.bin$/;

const TASK_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const isDelegateTaskId = (id: string): boolean => TASK_ID_PATTERN.test(id);
export const CHILD_SESSION_PATTERN = /^delegate-[0-9a-f]{32}$/;
export const NONCE_PATTERN = /^[0-9a-f]{32}$/;
