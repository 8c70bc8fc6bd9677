import type { LaunchSpec, ProcessLauncher } from "../ports/process-launcher.ts";

/**
 * The fixed vocabulary each twin maps to a LaunchSpec: shell commands for the real launcher,
 * scripts for the fake. Scenarios that wait for a kill print "ready\n" on stdout once their
 * signal handling is in place, so a kill never races the set-up.
 */
export type ProcessScenario =
  | { readonly kind: "print-and-exit"; readonly stdout: string; readonly stderr: string; readonly exitCode: number }
  /** Copies stdin to stdout, then exits 0. `stdin` omitted: stdin is closed at once. */
  | { readonly kind: "echo-stdin"; readonly stdin?: Uint8Array }
  /** Exits 0 at once without reading the stdin it was given. */
  | { readonly kind: "ignore-stdin"; readonly stdin: Uint8Array }
  /** Sends itself SIGTERM. */
  | { readonly kind: "exit-by-signal" }
  | { readonly kind: "run-until-killed" }
  | { readonly kind: "ignore-sigterm" }
  /** Starts a group member with its own stdio, then waits until killed. */
  | { readonly kind: "grandchild-and-wait"; readonly grandchildIgnoresSigterm: boolean }
  /**
   * Starts a descendant with its own stdio (it holds no output) that runs `runMs` and exits 0; `leavesGroup`:
   * it leaves the process group first (setsid). Prints "detached <pid>\n" and "ready\n", and exits 0 at once.
   */
  | { readonly kind: "detached-child"; readonly runMs: number; readonly leavesGroup: boolean }
  /** Prints "early\n" and exits 0 at once; a group member holding its stdout prints "late\n" a moment later, then exits. */
  | { readonly kind: "grandchild-holds-output" }
  /**
   * Starts a descendant that leaves the process group (setsid) and keeps its own stdio; it prints
   * "escapee <pid>\n" then "ready\n". The leader waits until killed.
   */
  | { readonly kind: "escapee-and-wait"; readonly escapeeIgnoresSigterm: boolean }
  /**
   * Starts two descendants that keep holding its stdout (one in the group, one that left it with
   * setsid), prints "holder <pid>\n" for each, then "ready\n", and exits 0 at once.
   */
  | { readonly kind: "background-holds-output" }
  /** Cannot start (its working directory does not exist). */
  | { readonly kind: "cannot-start" };

export interface ProcessLauncherSubject {
  readonly launcher: ProcessLauncher;
  specFor(scenario: ProcessScenario): LaunchSpec;
  /** Whether any non-zombie process of the group led by `pgid` is alive. */
  groupAlive(pgid: number): Promise<boolean>;
  /** Whether the process `pid` is alive (and not a zombie). */
  alive(pid: number): Promise<boolean>;
}
