import { fauxAssistantMessage, registerFauxProvider, type FauxResponseStep } from "@mariozechner/pi-ai";
import {
  AuthStorage,
  createAgentSession,
  DefaultResourceLoader,
  ModelRegistry,
  SessionManager,
  SettingsManager,
  type AgentSession,
  type AgentSessionEvent,
  type ExtensionFactory,
} from "@mariozechner/pi-coding-agent";

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
  const faux = registerFauxProvider({ provider: "faux", models: [{ id: "faux-1", contextWindow: 128_000, maxTokens: 4096 }] });
  faux.setResponses(options.replies ?? []);
  const authStorage = AuthStorage.inMemory();
  authStorage.setRuntimeApiKey("faux", "offline");
  const modelRegistry = ModelRegistry.inMemory(authStorage);
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
    model: faux.getModel(),
    authStorage,
    modelRegistry,
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
          reject(new Error(`timed out after ${timeoutMs} ms waiting for an event; saw: ${events.map((e) => e.type).join(", ")}`));
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
