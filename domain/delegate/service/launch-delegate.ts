import { sha256Hex, utf8Bytes } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { ensureArtifactDir } from "../../shared/service/artifact-dir.ts";
import { evidenceFileName } from "../model/hook-contract.ts";
import { admitDelegate, type Admitted } from "../model/delegate-admission.ts";
import type { ReadScope } from "../../confinement/model/read-scope.ts";
import { artifactPath, DELEGATE_ARTIFACT, delegateRunDir, isDelegateTaskId } from "../model/delegate-artifacts.ts";
import { admissionError, delegateError, type DelegateError, type DelegateErrorCode } from "../model/delegate-error.ts";
import { buildLaunchPlan, DELEGATE_CHILD_TOOLS, type LaunchPlan } from "../model/delegate-launch-plan.ts";
import { DELEGATE_MANIFEST_SCHEMA, manifestLimits, type DelegateManifest } from "../model/delegate-manifest.ts";
import { failedOutcome, runError, type DelegateOutcome } from "../model/delegate-outcome.ts";
import type { ResultIdentity } from "../model/result-package.ts";
import { buildReceipt, type DelegateLaunchReceipt } from "../model/launch-receipt.ts";
import { launchesDir, launchPointerOf, launchPointerPath } from "../model/launch-pointer.ts";
import { inOrder, readWhole, writeJson, writeText } from "./artifact-io.ts";
import type { DelegateHost, DelegateLaunchRequest, DelegatePorts } from "./delegate-ports.ts";
import { DelegateRun } from "./delegate-run.ts";

/** What the host wraps as a background task: the receipt, then the outcome once the child is adjudicated. */
export interface DelegateHandle {
  readonly taskId: string;
  readonly artifactDir: string;
  readonly pid: number;
  readonly identity: ResultIdentity;
  readonly receipt: DelegateLaunchReceipt;
  isRunning(): boolean;
  /** The outcome once adjudicated (outcome.json written), else undefined. */
  outcome(): DelegateOutcome | undefined;
  whenDone(): Promise<DelegateOutcome>;
  /** SIGTERM, then SIGKILL after 3 s, to the child's process group; resolves with the adjudicated outcome. */
  cancel(): Promise<DelegateOutcome>;
}

export interface DelegateLaunch {
  readonly receipt: DelegateLaunchReceipt;
  readonly handle: DelegateHandle;
}

/** An admitted delegate with where its child may read. */
type ScopedAdmission = Admitted & { readonly readScope: ReadScope };

/**
 * `bg_delegate`: admission (nothing exists on refusal), persistence of the seed and its companions,
 * then one child `pi --mode json` with the prompt on stdin. Returns at once; the handle settles when
 * the child has exited and `outcome.json` is written.
 */
export async function launchDelegate(
  ports: DelegatePorts,
  request: DelegateLaunchRequest,
): Promise<Result<DelegateLaunch, DelegateError<DelegateErrorCode>>> {
  const admitted = await admit(ports, request);
  if (!admitted.ok) return admitted;
  const a = admitted.value;
  const taskId = request.taskId ?? `d${ports.random.hex(16)}`;
  if (!isDelegateTaskId(taskId)) throw new Error(`launchDelegate: task id ${JSON.stringify(taskId)} is not a plain id`);
  const launchNonce = ports.random.hex(16);
  const childSessionId = `delegate-${ports.random.hex(16)}`;
  const artifactDir = delegateRunDir(request.location, taskId);
  const cliPath = request.host.cliPath ?? "";
  const plan = buildLaunchPlan({
    nodePath: request.host.nodePath,
    cliPath,
    artifactDir,
    childSessionId,
    guardExtensionPath: request.host.guardExtensionPath,
    ...(request.host.anthropicSanitizerPath !== undefined
      ? { anthropicSanitizerPath: request.host.anthropicSanitizerPath }
      : {}),
    route: a.route,
    seedSha256: a.seed.seedSha256,
    taskId,
    launchNonce,
    readScope: a.readScope,
    flags: request.host.piFlags,
  });
  const manifest = buildManifest(ports, request, a, { taskId, launchNonce, childSessionId, plan });
  const persisted = await persist(ports, artifactDir, a, manifest, request.location);
  if (!persisted.ok) return persisted;
  const identity: ResultIdentity = { taskId, launchNonce, seedSha256: a.seed.seedSha256, route: a.route };
  const started = ports.launcher.launch({
    command: { kind: "argv", file: plan.file, args: plan.args },
    cwd: a.seed.seed.cwd,
    env: ports.childEnv(plan.env, a.route.provider),
    stdin: new TextEncoder().encode(a.childPrompt),
  });
  if (!started.ok) return spawnFailed(ports, identity, artifactDir, started.error.message);
  const run = new DelegateRun(
    { files: ports.files, clock: ports.clock, identity, artifactDir, timeoutMs: a.args.limits.timeoutSeconds * 1000 },
    started.value,
  );
  const receipt = buildReceipt({
    admitted: a,
    taskId,
    childSessionId,
    plan,
    artifactDir,
    pid: run.pid,
    tools: DELEGATE_CHILD_TOOLS,
  });
  const handle: DelegateHandle = {
    taskId,
    artifactDir,
    pid: run.pid,
    identity,
    receipt,
    isRunning: () => run.outcome() === undefined,
    outcome: () => run.outcome(),
    whenDone: () => run.whenDone(),
    cancel: () => run.cancel(),
  };
  return ok({ receipt, handle });
}

async function admit(
  ports: DelegatePorts,
  request: DelegateLaunchRequest,
): Promise<Result<ScopedAdmission, DelegateError<DelegateErrorCode>>> {
  const conversation = ports.conversation.capture();
  const admitted = admitDelegate({
    hookContract: await evidenceFor(ports, request.host),
    childPiVersion: request.host.piVersion,
    rawArguments: request.rawArguments,
    isolationProblems: await isolationProblems(ports, request.host),
    currentRoute: request.currentRoute,
    availableModels: request.availableModels,
    conversation: conversation.ok
      ? { ok: true, ...conversation.value }
      : { ok: false, message: conversation.error.message },
    activeToolCallId: request.toolCallId,
  });
  if (!admitted.ok) return admitted;
  if (admitted.value.route.provider === "anthropic" && request.host.anthropicSanitizerPath === undefined) {
    return err(
      admissionError(
        "delegate_isolation_unsupported",
        "an anthropic child needs the system-prompt sanitizer extension, and none is configured.",
        "reinstall the package, or pass a non-anthropic route.",
      ),
    );
  }
  const readScope = ports.readScope(admitted.value.seed.seed.cwd);
  if (!readScope.ok)
    return err(admissionError(readScope.error.code, readScope.error.message, "start Pi inside a project directory."));
  return ok({ ...admitted.value, readScope: readScope.value });
}

/**
 * The evidence of the very release the child runs: recorded with the package, else proved by execution
 * against that Pi (host.proveHookContract); undefined when there is neither.
 */
async function evidenceFor(
  ports: DelegatePorts,
  host: DelegateHost,
): Promise<{ readonly evidence: unknown; readonly proofFailure?: string }> {
  const recorded = await readEvidence(host, host.hookEvidenceDir, host.piVersion);
  if (recorded !== undefined || host.proveHookContract === undefined || host.piVersion === undefined)
    return { evidence: recorded };
  try {
    return { evidence: await host.proveHookContract() };
  } catch (error) {
    return { evidence: undefined, proofFailure: error instanceof Error ? error.message : String(error) };
  }
}

async function readEvidence(host: DelegateHost, dir: string, piVersion: string | undefined): Promise<unknown> {
  const file = evidenceFileName(piVersion);
  if (file === undefined) return undefined;
  const bytes = await readWhole(host.installedFiles, `${dir}/${file}`);
  if (!bytes.ok || bytes.value === undefined) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(bytes.value)) as unknown;
  } catch {
    return undefined;
  }
}

async function isolationProblems(ports: DelegatePorts, host: DelegateHost): Promise<string[]> {
  const problems: string[] = [];
  if (host.cliPath === undefined) problems.push("the Pi CLI was not found");
  else if (!(await host.installedFiles.size(host.cliPath)).ok) problems.push(`the Pi CLI ${host.cliPath} is missing`);
  if (!(await host.installedFiles.size(host.guardExtensionPath)).ok)
    problems.push(`the delegate guard extension ${host.guardExtensionPath} is missing`);
  return problems;
}

interface LaunchIds {
  readonly taskId: string;
  readonly launchNonce: string;
  readonly childSessionId: string;
  readonly plan: LaunchPlan;
}

function buildManifest(
  ports: DelegatePorts,
  request: DelegateLaunchRequest,
  a: ScopedAdmission,
  ids: LaunchIds,
): DelegateManifest {
  return {
    schema_version: DELEGATE_MANIFEST_SCHEMA,
    task_id: ids.taskId,
    name: a.args.name,
    launch_nonce: ids.launchNonce,
    child_session_id: ids.childSessionId,
    child_session_dir: ids.plan.sessionDir,
    child_session_file: ids.plan.sessionFile,
    isolation: ids.plan.isolation,
    seed_sha256: a.seed.seedSha256,
    seed_bytes: a.seed.seedBytes,
    child_prompt_sha256: sha256Hex(a.childPrompt),
    child_prompt_bytes: utf8Bytes(a.childPrompt),
    ledger_sha256: a.seed.ledgerSha256,
    route: {
      provider: a.route.provider,
      model: a.route.model,
      context_window: a.route.contextWindow,
      source: a.route.source,
    },
    capability: a.args.capability,
    mode: "isolated",
    limits: manifestLimits(a.args.limits),
    auto_deliver: a.args.autoDeliver,
    notify_on_completion: a.args.notifyOnCompletion,
    trigger_on_completion: a.args.triggerOnCompletion,
    parent: { session_id: request.location.sessionId, pid: request.location.pid, tool_call_id: request.toolCallId },
    cwd: a.seed.seed.cwd,
    argv: [ids.plan.file, ...ids.plan.args],
    created_at_ms: ports.clock.now(),
    state: "launching",
  };
}

/**
 * The seed and its companions, each durable; then the manifest, as the record that a launch follows, and the
 * pointer by which a later process finds the run directory.
 */
async function persist(
  ports: DelegatePorts,
  dir: string,
  a: ScopedAdmission,
  manifest: DelegateManifest,
  location: DelegateLaunchRequest["location"],
): Promise<Result<void, DelegateError<"seed_persist_failed">>> {
  const { files } = ports;
  const at = (name: string) => artifactPath(dir, name);
  const existing = await files.size(at(DELEGATE_ARTIFACT.seed));
  if (existing.ok || existing.error.code !== "file_not_found") {
    return err(
      admissionError(
        "seed_persist_failed",
        `the artifact directory ${dir} already holds a seed, or cannot be inspected.`,
        "launch again (a new task id is drawn), or clear the stale directory.",
      ),
    );
  }
  const written = await inOrder([
    () => ensureArtifactDir(files, dir),
    () => files.ensureDir(at(DELEGATE_ARTIFACT.childSessionDir)),
    () => files.ensureDir(at(DELEGATE_ARTIFACT.spillDir)),
    () => writeText(files, at(DELEGATE_ARTIFACT.seed), a.seed.seedJson),
    () => writeText(files, at(DELEGATE_ARTIFACT.childPrompt), a.childPrompt),
    () => writeText(files, at(DELEGATE_ARTIFACT.ledger), a.seed.ledgerJson),
    () => writeJson(files, at(DELEGATE_ARTIFACT.budgetPlan), a.budget),
    () => writeJson(files, at(DELEGATE_ARTIFACT.manifest), manifest),
    () => files.ensureDir(launchesDir(location.baseDir)),
    () =>
      writeJson(
        files,
        launchPointerPath(location.baseDir, manifest.task_id),
        launchPointerOf(location, manifest.task_id),
      ),
  ]);
  if (written.ok) return ok(undefined);
  return err(
    delegateError("seed_persist_failed", {
      happened: `the seed could not be persisted: ${written.error.message}.`,
      preserved: `no child was started; ${dir} may hold some of the launch files.`,
      remedy: "free disk space or fix permissions under .pi/delegate, then call again.",
      childCreated: false,
    }),
  );
}

async function spawnFailed(
  ports: DelegatePorts,
  identity: ResultIdentity,
  artifactDir: string,
  why: string,
): Promise<Result<never, DelegateError<"child_spawn_failed">>> {
  const error = {
    ...runError({ artifactDir }, "child_spawn_failed", `the child Pi could not be started: ${why}.`),
    childCreated: false,
  };
  const end = {
    pid: null,
    exitCode: null,
    signal: null,
    timedOut: false,
    cancelled: false,
    stdoutBytes: 0,
    stderrBytes: 0,
  };
  await writeJson(
    ports.files,
    artifactPath(artifactDir, DELEGATE_ARTIFACT.outcome),
    failedOutcome({ identity, artifactDir, end }, "failed", error),
  );
  return err(error as DelegateError<"child_spawn_failed">);
}
