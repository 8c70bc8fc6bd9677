/**
 * Tools no child of this package (Fusion stage, delegate) may ever get, whatever its allowlist says: shell and
 * file writes, and the package's own tools, through which a child could start shell commands or more children.
 */
export const CHILD_DENIED_TOOLS: readonly string[] = [
  "bash",
  "edit",
  "write",
  "fusion_brainstorm",
  "fusion_validate",
  "bg_delegate",
  "bg_result",
  "bg_run",
  "bg_kill",
  "bg_status",
  "bg_logs",
  "bg_run_pi_attested",
];
