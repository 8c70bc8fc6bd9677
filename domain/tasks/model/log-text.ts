import type { LogReadPlan } from "./log-read.ts";
import type { InvalidUtf8 } from "./utf8-slice.ts";

/** The text bg_logs and /logs return: the slice, framed by what it is and what lies outside it. */
export function renderLogText(
  text: string,
  plan: LogReadPlan,
  outputPath: string,
  running: boolean,
  invalid?: InvalidUtf8,
): string {
  const range = `bytes ${plan.windowStart}–${plan.windowEnd} of ${plan.produced}${running ? " so far" : ""}`;
  const elided =
    plan.elidedInWindow > 0
      ? `\n[${plan.elidedInWindow} bytes of this range were elided by the output cap; head and tail are kept]`
      : "";
  const next = `[Next offset: ${plan.nextOffset}. Full output: ${outputPath}]`;
  const notText =
    invalid === undefined
      ? ""
      : `\n[${invalid.bytes} byte(s) of this range are not UTF-8 (first at byte ${invalid.firstOffset}), shown as \uFFFD; read with encoding "base64" for the exact bytes]`;
  if (plan.produced === 0) return `[No output yet. Output file: ${outputPath}]`;
  if (!plan.partial && plan.elidedInWindow === 0)
    return `${text}\n[Full output (${plan.produced} bytes): ${outputPath}]${notText}`;
  return `[Showing ${range}]${elided}\n${text}\n${next}${notText}`;
}
