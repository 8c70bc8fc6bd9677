import type { TaskSnapshot } from "../../tasks/model/task-snapshot.ts";
import type { CredentialClass } from "./credential-class.ts";

/** What `bg_run_pi_attested` tells the model about the run it started. */
export function attestedReceipt(task: TaskSnapshot, credential: CredentialClass): string {
  const facts = task.attestedPi;
  return [
    `Started attested Pi run ${task.name} (${task.id})`,
    `Status: ${task.status}${task.error ? ` — ${task.error}` : ""}`,
    `PID: ${task.pid ?? "none"}`,
    `Route: ${facts?.provider ?? "?"}/${facts?.model ?? "?"}${facts?.thinking === undefined ? "" : ` (thinking ${facts.thinking})`}`,
    `Credential class: ${credential.authClass} (channel ${credential.channel})`,
    `Report to write: ${facts?.reportPath ?? "?"}`,
    `Transcript: ${task.outputPath}; raw events: ${facts?.eventsPath ?? "?"}; stderr: ${facts?.stderrPath ?? "?"}`,
    "Terminal notification: disabled for attested runs (no automatic follow-up turn).",
    `On success the attestation sidecar is written last, next to the transcript; check the outcome with bg_status ${task.id} when you need it.`,
  ].join("\n");
}
