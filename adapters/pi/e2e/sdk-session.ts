import { join } from "node:path";
import { locatePiCli } from "./pi-process.ts";
import * as piAi from "@mariozechner/pi-ai";
import { fauxAssistantMessage, registerFauxProvider, type FauxResponseStep } from "@mariozechner/pi-ai";
import * as piSdk from "@mariozechner/pi-coding-agent";
import {
  createAgentSession,
  DefaultResourceLoader,
  SessionManager,
  SettingsManager,
  type AgentSession,
  type AgentSessionEvent,
  type ExtensionFactory,
} from "@mariozechner/pi-coding-agent";

/** The SDK's own version string (`VERSION`), so a test can say which Pi ran in-process. */
export const SDK_PI_VERSION: string = (piSdk as unknown as { VERSION: string }).VERSION;

interface FauxRoute {
  readonly model: ReturnType<FauxRegistration["getModel"]>;
  /** Spread into createAgentSession's options. */
  readonly access: Record<string, unknown>;
  setResponses(steps: FauxResponseStep[]): void;
  appendResponses(steps: FauxResponseStep[]): void;
  unregister(): void;
}
type FauxRegistration = ReturnType<typeof registerFauxProvider>;
interface RuntimeV1 {
  registerNativeProvider(provider: unknown): void;
  setRuntimeApiKey(provider: string, key: string): Promise<void>;
}
interface AuthStorageV0 {
  setRuntimeApiKey(provider: string, key: string): void;
}
/** The parts of the two SDK generations this helper uses; each is absent on the other generation. */
interface SdkGenerations {
  readonly ModelRuntime?: { create(options: object): Promise<RuntimeV1> };
  readonly AuthStorage?: { inMemory(): AuthStorageV0 };
  readonly ModelRegistry?: { inMemory(auth: AuthStorageV0): unknown };
}
interface AiGenerations {
  readonly fauxProvider?: (options: typeof FAUX) => FauxRegistration & { provider: unknown };
}

const FAUX = { provider: "faux", models: [{ id: "faux-1", contextWindow: 128_000, maxTokens: 4096 }] };

/**
 * The faux provider wired in the shape the host's SDK takes: Pi 0.73 registers it globally and reads keys
 * from `AuthStorage` + `ModelRegistry.inMemory`; Pi 1.x has one `ModelRuntime` that takes it as a native
 * provider (`fauxProvider(...).provider`).
 */
async function fauxRoute(agentDir: string): Promise<FauxRoute> {
  const sdk = piSdk as SdkGenerations;
  const ai = piAi as AiGenerations;
  if (sdk.ModelRuntime !== undefined && ai.fauxProvider !== undefined) {
    const handle = ai.fauxProvider(FAUX);
    const runtime = await sdk.ModelRuntime.create({
      authPath: join(agentDir, "auth.json"),
      modelsPath: null,
      refreshOnCreate: false,
    });
    runtime.registerNativeProvider(handle.provider);
    await runtime.setRuntimeApiKey(FAUX.provider, "offline");
    return {
      model: handle.getModel(),
      access: { modelRuntime: runtime },
      setResponses: handle.setResponses,
      appendResponses: handle.appendResponses,
      unregister: () => undefined,
    };
  }
  if (sdk.AuthStorage === undefined || sdk.ModelRegistry === undefined)
    throw new Error("this Pi SDK has neither ModelRuntime nor AuthStorage and ModelRegistry");
  const faux = registerFauxProvider(FAUX);
  const authStorage = sdk.AuthStorage.inMemory();
  authStorage.setRuntimeApiKey(FAUX.provider, "offline");
  const modelRegistry = sdk.ModelRegistry.inMemory(authStorage);
  return {
    model: faux.getModel(),
    access: { authStorage, modelRegistry },
    setResponses: faux.setResponses,
    appendResponses: faux.appendResponses,
    unregister: faux.unregister,
  };
}

export interface SdkSession {
  readonly session: AgentSession;
  readonly events: AgentSessionEvent[];
  /** Queue more scripted model replies. */
  reply(...steps: FauxResponseStep[]): void;
  /** Resolves when an event matching `predicate` has been seen (already or later). */
  waitFor(predicate: (event: AgentSessionEvent) => boolean, timeoutMs?: number): Promise<AgentSessionEvent>;
  /** Emits session_shutdown to the extensions, as Pi does on quit, then disposes the session. */
  shutdown(): Promise<void>;
}

/** An in-process Pi session (the real SDK) on pi-ai's faux provider, with the given extensions loaded. */
export async function startSdkSession(options: {
  cwd: string;
  agentDir: string;
  /** Extension files or package directories, loaded exactly as Pi loads `-e <path>`. */
  extensionPaths?: string[];
  extensions?: ExtensionFactory[];
  replies?: FauxResponseStep[];
}): Promise<SdkSession> {
  // No vacuous lane: the SDK loaded in this process must be the lane's Pi.
  if (SDK_PI_VERSION !== locatePiCli().version)
    throw new Error(`the in-process Pi SDK is ${SDK_PI_VERSION}, but this test lane runs Pi ${locatePiCli().version}`);
  const faux = await fauxRoute(options.agentDir);
  faux.setResponses(options.replies ?? []);
  const settingsManager = SettingsManager.inMemory({ compaction: { enabled: false } });
  const resourceLoader = new DefaultResourceLoader({
    cwd: options.cwd,
    agentDir: options.agentDir,
    settingsManager,
    noExtensions: true,
    noSkills: true,
    noPromptTemplates: true,
    noThemes: true,
    noContextFiles: true,
    additionalExtensionPaths: options.extensionPaths ?? [],
    extensionFactories: options.extensions ?? [],
  });
  await resourceLoader.reload();
  const { session } = await createAgentSession({
    cwd: options.cwd,
    agentDir: options.agentDir,
    model: faux.model,
    ...faux.access,
    settingsManager,
    resourceLoader,
    sessionManager: SessionManager.inMemory(options.cwd),
  });
  const events: AgentSessionEvent[] = [];
  const waiters = new Set<() => void>();
  session.subscribe((event) => {
    events.push(event);
    for (const wake of [...waiters]) wake();
  });
  await session.bindExtensions({});
  return {
    session,
    events,
    reply: (...steps) => faux.appendResponses(steps),
    waitFor: (predicate, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(predicate);
          if (found === undefined) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `timed out after ${timeoutMs} ms waiting for an event; saw: ${events.map((e) => e.type).join(", ")}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    shutdown: async () => {
      await session.extensionRunner.emit({ type: "session_shutdown", reason: "quit" });
      session.dispose();
      faux.unregister();
    },
  };
}

export { fauxAssistantMessage };

/** The package root: what a user passes to `pi -e` or `pi install`. */
export const PACKAGE_ROOT = new URL("../../../", import.meta.url).pathname.replace(/\/$/, "");
