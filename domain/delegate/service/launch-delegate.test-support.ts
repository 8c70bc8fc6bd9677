import { readScopeFor } from "../../confinement/model/read-scope.ts";
import { BASELINE_PI_FLAGS } from "../../shared/model/pi-cli-flags.ts";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeProcessLauncher } from "../../../adapters/fake/fake-process-launcher.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { canonicalJsonOf } from "../../shared/model/canonical-json.ts";
import { ok } from "../../shared/model/result.ts";
import type { ConversationSource } from "../../../ports/conversation-source.ts";
import { ACTIVE, attestation, branch, MODELS, supportedEvidence } from "../model/delegate-fixtures.test-support.ts";
import { buildResultPackage } from "../model/result-package.ts";
import type { DelegateHost, DelegateLaunchRequest, DelegatePorts } from "./delegate-ports.ts";
import { launchDelegate, type DelegateHandle } from "./launch-delegate.ts";

// Shared by the launchDelegate tests: a host, a world of fakes with the hook evidence and guard in place,
// a launch request, and helpers to launch, commit an answer and reach the one child.

/** The installation the host reads: the files of the latest world (tests in a file run one at a time). */
let installation = new InMemoryFileCommitter();

export const HOST: DelegateHost = {
  nodePath: "/usr/bin/node",
  cliPath: "/pi/cli.js",
  piVersion: "0.73.1",
  piFlags: BASELINE_PI_FLAGS,
  guardExtensionPath: "/pkg/guard.ts",
  anthropicSanitizerPath: "/pkg/sanitizer.ts",
  hookEvidenceDir: "/pkg/evidence",
  installedFiles: {
    size: (path) => installation.size(path),
    readRange: (path, offset, length) => installation.readRange(path, offset, length),
  },
};
export const encode = (text: string) => new TextEncoder().encode(text);
export const decode = (bytes: Uint8Array | "deferred" | undefined) =>
  new TextDecoder().decode(bytes instanceof Uint8Array ? bytes : undefined);

export interface World {
  readonly files: InMemoryFileCommitter;
  readonly launcher: FakeProcessLauncher;
  readonly clock: FakeClock;
  readonly ports: DelegatePorts;
  readonly envCalls: Record<string, string>[];
}

export async function world(
  options: { evidence?: boolean; guard?: boolean; conversation?: ConversationSource } = {},
): Promise<World> {
  const files = new InMemoryFileCommitter();
  installation = files;
  const clock = new FakeClock();
  // The default fake child runs until it is killed or the test finishes it.
  const launcher = new FakeProcessLauncher({ clock, script: () => ({}) });
  await files.ensureDir("/pkg");
  await files.ensureDir("/pkg/evidence");
  await files.ensureDir("/pi");
  await files.ensureDir("/proj");
  await files.replaceAtomic("/pi/cli.js", encode("// pi"));
  if (options.guard !== false) await files.replaceAtomic("/pkg/guard.ts", encode("// guard"));
  if (options.evidence !== false)
    await files.replaceAtomic("/pkg/evidence/pi-0.73.1.json", encode(canonicalJsonOf(supportedEvidence())));
  const envCalls: Record<string, string>[] = [];
  const ports: DelegatePorts = {
    files,
    launcher,
    clock,
    random: new SeededRandomSource(7),
    conversation: options.conversation ?? {
      capture: () => ok({ cwd: "/proj", systemPrompt: "You are the parent.", messages: branch() }),
    },
    childEnv: (extra) => {
      envCalls.push({ ...extra });
      return { PATH: "/bin", ...extra };
    },
    readScope: (cwd) => readScopeFor({ cwd, gitTop: undefined, home: "/home/u", agentDir: "/home/u/.pi/agent" }),
  };
  return { files, launcher, clock, ports, envCalls };
}

export const request = (overrides: Partial<DelegateLaunchRequest> = {}): DelegateLaunchRequest => ({
  rawArguments: { name: "review", prompt: "Review parse()." },
  toolCallId: ACTIVE,
  location: { baseDir: "/proj", sessionId: "sess/1", pid: 42 },
  currentRoute: { provider: "p", model: "big" },
  availableModels: MODELS,
  host: HOST,
  ...overrides,
});

export async function launched(w: World, overrides: Partial<DelegateLaunchRequest> = {}): Promise<DelegateHandle> {
  const result = await launchDelegate(w.ports, request(overrides));
  if (!result.ok) throw new Error(result.error.message);
  return result.value.handle;
}

export async function commitAnswer(w: World, handle: DelegateHandle, answer: string): Promise<void> {
  const built = buildResultPackage(handle.identity, answer, [attestation(0)], {
    turns: 1,
    tool_calls: 0,
    spilled_results: 0,
    tool_output_bytes: 0,
  });
  if (!built.ok) throw new Error(built.error.message);
  await w.files.replaceAtomic(`${handle.artifactDir}/result.json`, encode(built.value.json));
}

export const onlyProcess = (w: World) => {
  const proc = w.launcher.processes[0];
  if (proc === undefined) throw new Error("no child was launched");
  return proc;
};
