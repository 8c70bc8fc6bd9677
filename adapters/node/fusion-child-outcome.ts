import { addUsage, ZERO_USAGE } from "../../domain/shared/model/usage.ts";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type { ChildError, ChildErrorCode, ChildRoute, ChildStageResult } from "../../ports/fusion-child-runner.ts";
import type { ProcessExit } from "../../ports/process-launcher.ts";
import { parseFrameJson, type ParsedFrame } from "./fusion-child-frame.ts";
import { childRetries } from "./fusion-child-retries.ts";
import { verifyStdout } from "./fusion-child-stdout.ts";

/** Why the runner itself ended the child, if it did. */
export type StopCause =
  | { readonly kind: "cancelled" }
  | { readonly kind: "discarded" }
  | { readonly kind: "idle_timeout"; readonly ms: number }
  | { readonly kind: "absolute_timeout"; readonly ms: number }
  | { readonly kind: "output_cap"; readonly bytes: number }
  | { readonly kind: "stdin_failed"; readonly reason: string };

export interface ChildObservation {
  readonly route: ChildRoute;
  readonly stop: StopCause | undefined;
  /** The child exited before its prompt was written. */
  readonly exitedBeforeSend: boolean;
  readonly exit: ProcessExit;
  readonly rawFrames: readonly string[];
  readonly streamProblems: readonly string[];
  readonly stdout: Uint8Array;
  readonly stdinError: string | undefined;
  readonly stderrTail: string;
  readonly durationMs: number;
}

const lossyUtf8 = new TextDecoder("utf-8");

/**
 * Judges an attempt by what the child reported, never by its exit code: success needs metadata frames
 * that parse, a final `stop`, the pinned provider/model, and stdout that matches the final frame.
 * Every failure carries the partial result (frames and usage so far) so the cost is still counted.
 */
export function judgeChild(o: ChildObservation): Result<ChildStageResult, ChildError> {
  const parsed: ParsedFrame[] = [];
  const frameProblems: string[] = [...o.streamProblems];
  for (const [index, raw] of o.rawFrames.entries()) {
    const frame = parseFrameJson(raw);
    if (frame.ok) parsed.push(frame.value);
    else frameProblems.push(`frame ${index + 1}: ${frame.error}`);
  }
  const frames = parsed.map((p) => p.frame);
  const retries = childRetries(frames);
  const partial: ChildStageResult = {
    text: lossyUtf8.decode(o.stdout),
    frames,
    usage: frames.reduce((sum, f) => addUsage(sum, f.usage), ZERO_USAGE),
    ...(retries.length === 0 ? {} : { retries }),
    exitCode: o.exit.code,
    durationMs: o.durationMs,
  };
  const fail = (code: ChildErrorCode, message: string, captured = partial): Result<ChildStageResult, ChildError> =>
    err({ code, message: `${message}${exitNote(o)}`, partial: captured });

  const stopped = stopFailure(o.stop);
  if (stopped !== undefined) return fail(stopped.code, stopped.message);
  if (o.exitedBeforeSend) return fail("child_spawn_failed", "the Fusion child exited before its prompt was sent");
  if (frameProblems.length > 0)
    return fail("child_event_invalid", `invalid metadata from the Fusion child: ${frameProblems.join("; ")}`);
  const last = parsed.at(-1);
  if (last === undefined) {
    if (o.stdinError !== undefined)
      return fail("child_stdin_failed", `the prompt could not be written to the Fusion child (${o.stdinError})`);
    return fail(
      "child_event_invalid",
      "the Fusion child reported no metadata frame (no assistant message was finalised)",
    );
  }
  if (last.frame.stopReason !== "stop") {
    const why = last.frame.errorMessage ?? "no error message";
    const n = retries.length;
    const retried = n === 0 ? "" : ` (after ${n} ${n === 1 ? "retry" : "retries"} on the same route)`;
    return fail(
      "child_exit_failed",
      `the Fusion child's final message ended with stopReason "${last.frame.stopReason}"${retried}: ${why}`,
      cutOffText(o, last, partial),
    );
  }
  if (last.frame.provider !== o.route.provider || last.frame.model !== o.route.model) {
    const seen = `${last.frame.provider}/${last.frame.model}`;
    return fail(
      "child_event_invalid",
      `the Fusion child answered with ${seen}, not the pinned route ${o.route.provider}/${o.route.model}`,
    );
  }
  const text = verifyStdout(o.stdout, last);
  if (!text.ok)
    return fail(
      "child_event_invalid",
      `the Fusion child's stdout does not match its final metadata frame: ${text.error}`,
    );
  return ok({ ...partial, text: text.value });
}

function stopFailure(stop: StopCause | undefined): { code: ChildErrorCode; message: string } | undefined {
  switch (stop?.kind) {
    case undefined:
      return undefined;
    case "cancelled":
      return { code: "child_cancelled", message: "the Fusion child was cancelled" };
    case "discarded":
      return { code: "child_cancelled", message: "the Fusion child was discarded before it finished" };
    case "idle_timeout":
      return {
        code: "child_timeout",
        message: `the Fusion child produced no output for ${stop.ms} ms (idle watchdog) and was stopped`,
      };
    case "absolute_timeout":
      return { code: "child_timeout", message: `the Fusion child ran longer than ${stop.ms} ms and was stopped` };
    case "output_cap":
      return {
        code: "child_output_cap",
        message: `the Fusion child wrote more than ${stop.bytes} bytes to stdout and was stopped`,
      };
    case "stdin_failed":
      return { code: "child_stdin_failed", message: `the prompt was not sent to the Fusion child: ${stop.reason}` };
  }
}

function exitNote(o: ChildObservation): string {
  const how = o.exit.signal !== null ? `signal ${o.exit.signal}` : `exit code ${String(o.exit.code)}`;
  const tail = o.stderrTail.trim();
  return ` (${how}${tail === "" ? "" : `; stderr ends: ${tail}`})`;
}

/**
 * A message stopped at the output limit is an answer, only incomplete: when stdout matches its frame,
 * the partial result carries exactly the text the model sent (without the newline Pi prints after it).
 */
function cutOffText(o: ChildObservation, last: ParsedFrame, partial: ChildStageResult): ChildStageResult {
  if (last.frame.stopReason !== "length") return partial;
  const text = verifyStdout(o.stdout, last);
  return text.ok ? { ...partial, text: text.value } : partial;
}
