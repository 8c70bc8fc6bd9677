import { isAbsolute } from "node:path";
import {
  artifactPath,
  DELEGATE_ARTIFACT,
  DELEGATE_ENV,
  isDelegateTaskId,
  NONCE_PATTERN,
} from "../../../domain/delegate/model/delegate-artifacts.ts";
import { seedLineOf } from "../../../domain/delegate/model/delegate-prompt.ts";
import { DELEGATE_SEED_SCHEMA } from "../../../domain/delegate/model/delegate-seed.ts";
import { sha256Hex } from "../../../domain/shared/model/canonical-json.ts";
import { err, ok, type Result } from "../../../domain/shared/model/result.ts";
import { readWholeSync } from "./delegate-guard-files.ts";

/** What the guard learned and verified at load, before any model call. */
export interface GuardBoot {
  readonly artifactDir: string;
  readonly taskId: string;
  readonly launchNonce: string;
  readonly seedSha256: string;
  readonly prompt: string;
  readonly route: { readonly provider: string; readonly model: string };
  readonly limits: {
    readonly maxTurns: number;
    readonly maxToolCalls: number;
    readonly capacityTokens: number;
    readonly perResultBytes: number;
    readonly aggregateToolOutputBytes: number;
    readonly readArtifactMaxLength: number;
  };
}

/** Why the boot failed, and as much of the identity as was readable (to write child-terminal.json). */
export interface BootFailure {
  readonly reason: string;
  readonly artifactDir: string | undefined;
  readonly taskId: string | undefined;
  readonly launchNonce: string | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Verifies, from the private env protocol: the seed file's SHA-256 equals the launch's, the manifest
 * binds that seed to this task id and nonce, and the persisted child prompt frames exactly that seed.
 */
export function bootGuard(env: Env): Result<GuardBoot, BootFailure> {
  const artifactDir = env[DELEGATE_ENV.artifactDir];
  const taskId = env[DELEGATE_ENV.taskId];
  const launchNonce = env[DELEGATE_ENV.launchNonce];
  const seedSha256 = env[DELEGATE_ENV.seedSha256];
  const seedPath = env[DELEGATE_ENV.seedPath];
  const fail = (reason: string): Result<never, BootFailure> =>
    err({ reason, artifactDir: usableDir(artifactDir), taskId, launchNonce });
  if (artifactDir === undefined || !isAbsolute(artifactDir))
    return fail(`${DELEGATE_ENV.artifactDir} is missing or not absolute`);
  if (taskId === undefined || !isDelegateTaskId(taskId)) return fail(`${DELEGATE_ENV.taskId} is missing or malformed`);
  if (launchNonce === undefined || !NONCE_PATTERN.test(launchNonce))
    return fail(`${DELEGATE_ENV.launchNonce} is missing or malformed`);
  if (seedSha256 === undefined || !/^[0-9a-f]{64}$/.test(seedSha256))
    return fail(`${DELEGATE_ENV.seedSha256} is missing or malformed`);
  if (seedPath !== artifactPath(artifactDir, DELEGATE_ARTIFACT.seed))
    return fail(`${DELEGATE_ENV.seedPath} does not name the seed of ${artifactDir}`);
  try {
    const seedBytes = readWholeSync(seedPath);
    if (sha256Hex(seedBytes) !== seedSha256)
      return fail(`seed.json hashes to ${sha256Hex(seedBytes)}, not the launch's ${seedSha256}`);
    const manifest = JSON.parse(
      readWholeSync(artifactPath(artifactDir, DELEGATE_ARTIFACT.manifest)).toString("utf8"),
    ) as Record<string, unknown>;
    if (manifest.task_id !== taskId || manifest.launch_nonce !== launchNonce || manifest.seed_sha256 !== seedSha256) {
      return fail("manifest.json does not bind this seed to this task id and launch nonce");
    }
    const promptBytes = readWholeSync(artifactPath(artifactDir, DELEGATE_ARTIFACT.childPrompt));
    if (sha256Hex(promptBytes) !== manifest.child_prompt_sha256)
      return fail("child-prompt.txt does not match the manifest's hash");
    const prompt = promptBytes.toString("utf8");
    const seedText = seedBytes.toString("utf8");
    if (seedLineOf(prompt) !== seedText) return fail("child-prompt.txt does not carry exactly the verified seed");
    const seed = readSeed(JSON.parse(seedText));
    if (seed === undefined) return fail(`seed.json is not a ${DELEGATE_SEED_SCHEMA} document the guard can read`);
    return ok({ artifactDir, taskId, launchNonce, seedSha256, prompt, ...seed });
  } catch (error) {
    return fail(`the launch files cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function readSeed(raw: unknown): Pick<GuardBoot, "route" | "limits"> | undefined {
  const seed = raw as { schema_version?: unknown; route?: Record<string, unknown>; limits?: Record<string, unknown> };
  if (seed.schema_version !== DELEGATE_SEED_SCHEMA || seed.route === undefined || seed.limits === undefined)
    return undefined;
  const { provider, model } = seed.route;
  const l = seed.limits;
  const counts = [
    l.max_turns,
    l.max_tool_calls,
    l.capacity_tokens,
    l.per_result_bytes,
    l.aggregate_tool_output_bytes,
    l.read_artifact_max_length,
  ];
  if (
    typeof provider !== "string" ||
    typeof model !== "string" ||
    !counts.every((n) => Number.isSafeInteger(n) && (n as number) > 0)
  )
    return undefined;
  const [maxTurns, maxToolCalls, capacityTokens, perResultBytes, aggregateToolOutputBytes, readArtifactMaxLength] =
    counts as number[];
  return {
    route: { provider, model },
    limits: {
      maxTurns: maxTurns ?? 0,
      maxToolCalls: maxToolCalls ?? 0,
      capacityTokens: capacityTokens ?? 0,
      perResultBytes: perResultBytes ?? 0,
      aggregateToolOutputBytes: aggregateToolOutputBytes ?? 0,
      readArtifactMaxLength: readArtifactMaxLength ?? 0,
    },
  };
}

function usableDir(dir: string | undefined): string | undefined {
  return dir !== undefined && isAbsolute(dir) ? dir : undefined;
}
