import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { describeHostSessionContract } from "../../contract-tests/host-session.contract.ts";
import { startSdkSession, type SdkSession } from "./e2e/sdk-session.ts";
import { piHostSession } from "./pi-host-session.ts";

let sdk: SdkSession | undefined;
let cwd: string | undefined;

const CONTRACT_MODEL = { provider: "contract-provider", id: "contract-1", contextWindow: 64_000, maxTokens: 2048 };
process.env.PI_BG_CONTRACT_KEY = "offline";

// A real Pi session (the SDK in process, talking to the faux provider's faux/faux-1), with one more provider
// registered the way a user's extension does it (an API key from the environment): the context is the one
// Pi hands its extensions at session start.
describeHostSessionContract("piHostSession over a real Pi session", {
  async open() {
    cwd = mkdtempSync(join(tmpdir(), "pi-bg-host-session-"));
    let seen: { pi: ExtensionAPI; ctx: ExtensionContext } | undefined;
    sdk = await startSdkSession({
      cwd,
      agentDir: join(cwd, "agent"),
      extensions: [
        (pi) => {
          pi.registerProvider(CONTRACT_MODEL.provider, {
            baseUrl: "http://127.0.0.1:9/v1",
            apiKey: "PI_BG_CONTRACT_KEY",
            api: "openai-completions",
            models: [
              {
                id: CONTRACT_MODEL.id,
                name: "Contract model",
                reasoning: false,
                input: ["text"],
                cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
                contextWindow: CONTRACT_MODEL.contextWindow,
                maxTokens: CONTRACT_MODEL.maxTokens,
              },
            ],
          });
          pi.on("session_start", async (_event, ctx) => {
            seen = { pi, ctx };
          });
        },
      ],
    });
    if (seen === undefined) throw new Error("Pi started the session without session_start");
    return {
      session: piHostSession(seen.pi, seen.ctx),
      cwd,
      apiKeyModel: CONTRACT_MODEL,
      current: { provider: "faux", id: "faux-1" },
    };
  },
  async close() {
    await sdk?.shutdown();
    if (cwd !== undefined) rmSync(cwd, { recursive: true, force: true });
  },
});
