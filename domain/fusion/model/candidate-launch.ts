import { SECRET_WINDOWS_PATH_ENV, SECRET_WINDOWS_SHA256_ENV } from "../../web/model/secret-windows.ts";
import { READ_SCOPE_ENV, serialiseReadScope, type ReadScope } from "../../confinement/model/read-scope.ts";
import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";
import { toolCallLogFile } from "./fusion-artifacts.ts";
import { candidateTools, type FusionCapability } from "./fusion-workflow.ts";

/**
 * The child-side protocol of a capability, as environment variable names. The child extensions
 * (adapters/pi/child/tool-audit-extension.ts, fusion-web-fetch-extension.ts) read the same names; a test
 * there holds the two sides together.
 */
export const TOOL_CALL_LOG_ENV = "PI_FUSION_TOOL_CALL_LOG_PATH";
export const RESEARCH_ENABLED_ENV = "PI_FUSION_RESEARCH_ENABLED";
export const CANDIDATE_PROTOCOL_ENV: readonly string[] = [
  TOOL_CALL_LOG_ENV,
  RESEARCH_ENABLED_ENV,
  READ_SCOPE_ENV,
  SECRET_WINDOWS_PATH_ENV,
  SECRET_WINDOWS_SHA256_ENV,
];

/** The egress guard's windows file of a research run and the SHA-256 of its bytes. */
export interface EgressGuardFile {
  readonly path: string;
  readonly sha256: string;
}

/** Absolute paths of the private candidate child extensions; the host supplies them (they are files). */
export interface CandidateExtensionPaths {
  /** Registers `fusion_web_fetch` in research children (with `PI_FUSION_RESEARCH_ENABLED=1`). */
  readonly webFetch: string;
  /** Writes the tool-call audit log named by `PI_FUSION_TOOL_CALL_LOG_PATH`; always the LAST extension. */
  readonly toolAudit: string;
}

/** How one candidate attempt's child is launched for its capability. */
export interface CandidateLaunch {
  readonly tools: readonly string[];
  /** Extra `--extension` paths, in argv order (web fetch first, audit last). Empty for `reason`. */
  readonly extensions: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** The audit log's file name inside the run directory, when the capability grants tools. */
  readonly auditLog?: string;
}

export type CandidateWiringError = TypedError<"orchestration_failed">;

/**
 * Refuses, before anything exists, a request that could not launch its candidates as the capability
 * demands: tool-granting capabilities without the extension paths (their calls would go unaudited, and
 * research would have no `fusion_web_fetch`), or a caller environment that sets the protocol variables
 * the orchestrator owns.
 */
export function checkCandidateWiring(
  capability: FusionCapability,
  paths: CandidateExtensionPaths | undefined,
  callerEnv: Readonly<Record<string, string>> | undefined,
): Result<void, CandidateWiringError> {
  const reserved = Object.keys(callerEnv ?? {}).filter((name) => CANDIDATE_PROTOCOL_ENV.includes(name));
  if (reserved.length > 0) {
    return err({
      code: "orchestration_failed",
      message: `the candidate environment may not set ${reserved.join(", ")}: the orchestrator sets them per capability and attempt`,
    });
  }
  if (capability === "reason" || paths !== undefined) {
    const bad = paths === undefined ? [] : [paths.webFetch, paths.toolAudit].filter((p) => !p.startsWith("/"));
    if (bad.length === 0) return ok(undefined);
    return err({
      code: "orchestration_failed",
      message: `candidate extension paths must be absolute, got ${bad.map((p) => JSON.stringify(p)).join(", ")}`,
    });
  }
  return err({
    code: "orchestration_failed",
    message: `the '${capability}' capability needs the host's candidate extensions (tool-call audit${capability === "research" ? ", web fetch" : ""}); without them its tool calls would go unaudited, so no child was started`,
  });
}

/**
 * The launch of one candidate attempt. `inspect` gets the audit extension and a per-attempt log path;
 * `research` also gets the web-fetch extension (before the audit, so the audit sees its results) and the
 * research flag. Both carry the run's read scope, which the child's own extension enforces. `reason` gets neither. The caller's environment comes first; the protocol variables win.
 */
export function candidateLaunch(
  capability: FusionCapability,
  paths: CandidateExtensionPaths | undefined,
  runDir: string,
  prefix: string,
  callerEnv: Readonly<Record<string, string>> = {},
  readScope?: ReadScope,
  egressGuard?: EgressGuardFile,
): CandidateLaunch {
  const tools = candidateTools(capability);
  if (capability === "reason") return { tools, extensions: [], env: { ...callerEnv } };
  if (paths === undefined)
    throw new Error(
      `candidateLaunch: '${capability}' needs extension paths (checkCandidateWiring refuses this earlier)`,
    );
  const auditLog = toolCallLogFile(prefix);
  if (readScope === undefined)
    throw new Error(`candidateLaunch: '${capability}' grants read tools, so it needs the run's read scope`);
  const env = {
    ...callerEnv,
    [TOOL_CALL_LOG_ENV]: `${runDir}/${auditLog}`,
    [READ_SCOPE_ENV]: serialiseReadScope(readScope),
  };
  if (capability === "inspect") return { tools, extensions: [paths.toolAudit], env, auditLog };
  if (egressGuard === undefined)
    throw new Error("candidateLaunch: a research candidate needs the run's egress guard file");
  return {
    tools,
    extensions: [paths.webFetch, paths.toolAudit],
    env: {
      ...env,
      [RESEARCH_ENABLED_ENV]: "1",
      [SECRET_WINDOWS_PATH_ENV]: egressGuard.path,
      [SECRET_WINDOWS_SHA256_ENV]: egressGuard.sha256,
    },
    auditLog,
  };
}
