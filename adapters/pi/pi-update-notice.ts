import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { type CommandOutput, hostMode } from "./ui/command-output.ts";
import { updateFooterText, updateReport, type UpdateStatus } from "../../domain/updates/model/update-status.ts";

/** Its own footer key, so it sits beside the task status ("background-tasks") without touching it. */
export const UPDATE_STATUS_KEY = "background-tasks-update";

export interface UpdateLookup {
  readonly packageName: string;
  /** Where the lookup goes, for /bg-update's wording; undefined when the check is off. */
  readonly registryUrl: string | undefined;
  /** The time-boxed lookup; resolves (never rejects) once, aborted by `signal` at session end. */
  run(signal: AbortSignal): Promise<UpdateStatus>;
}

/**
 * One session's update check: started once, in the background (nothing awaits it at session_start); shows
 * the footer segment when a newer release exists; `/bg-update` waits for the result (bounded by the time box)
 * and reports it. A result that arrives after the session ended is dropped.
 */
export class PiUpdateNotice {
  private readonly abort = new AbortController();
  private readonly result: Promise<UpdateStatus>;
  private shown = false;

  constructor(
    private readonly lookup: UpdateLookup,
    private readonly ctx: ExtensionContext,
  ) {
    this.result = lookup.run(this.abort.signal).catch(
      (cause: unknown): UpdateStatus => ({
        kind: "unavailable",
        current: "unknown",
        error: { code: "update_check_failed", message: cause instanceof Error ? cause.message : String(cause) },
      }),
    );
    void this.result.then((status) => this.showFooter(status));
  }

  /** `/bg-update`: the result (waiting for the lookup in flight) as one command answer. */
  async report(ctx: ExtensionContext, output: CommandOutput): Promise<void> {
    output(ctx, updateReport(this.lookup.packageName, await this.result, this.lookup.registryUrl), "info");
  }

  /** session_shutdown: ends a lookup in flight and clears the segment. */
  stop(): void {
    this.abort.abort();
    if (this.shown) this.ctx.ui.setStatus(UPDATE_STATUS_KEY, undefined);
    this.shown = false;
  }

  private showFooter(status: UpdateStatus): void {
    const text = updateFooterText(status);
    if (text === undefined || this.abort.signal.aborted || !this.ctx.hasUI) return;
    this.shown = true;
    // Colour in the terminal only: RPC clients get plain text, as for the task status.
    this.ctx.ui.setStatus(
      UPDATE_STATUS_KEY,
      hostMode(this.ctx) === "tui" ? this.ctx.ui.theme.fg("accent", text) : text,
    );
  }
}
