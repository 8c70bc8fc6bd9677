import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { expectEventually } from "../../../contract-tests/eventually.ts";
import { writeIsolatedAgentDir, type IsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import { startLoopbackNpmRegistry, type LoopbackNpmRegistry } from "../../fake/loopback-npm-registry.ts";
import { startScriptedModelServer, type ScriptedModelServer } from "../../fake/scripted-model-server.ts";
import type { PiRecord } from "./pi-cli.ts";
import { startPiRpc, type PiRpcClient } from "./rpc-client.ts";
import { LEAN_PI_ARGS } from "./scripted-parent.test-support.ts";
import { PACKAGE_ROOT } from "./sdk-session.ts";

const NAME = "pi-background-tasks";
const isUpdateStatus = (e: PiRecord) =>
  e.type === "extension_ui_request" && e.method === "setStatus" && e.statusKey === "background-tasks-update";
const isNotice = (e: PiRecord) => e.type === "extension_ui_request" && e.method === "notify";

let server: ScriptedModelServer;
let registry: LoopbackNpmRegistry;
let agent: IsolatedAgentDir;
let cwd: string;

beforeAll(async () => {
  // The suite's own environment keeps every other Pi away from any registry (vitest.config.ts).
  expect(process.env.PI_BG_DISABLE_UPDATE_CHECK).toBe("1");
  server = await startScriptedModelServer();
  registry = await startLoopbackNpmRegistry();
  cwd = mkdtempSync(join(tmpdir(), "bg-update-"));
  agent = await writeIsolatedAgentDir({ dir: join(cwd, ".agent"), baseUrl: server.baseUrl });
});

afterAll(async () => {
  await Promise.all([server?.close(), registry?.close()]);
});

beforeEach(() => {
  (registry.requests as unknown[]).length = 0;
});

/**
 * A real `pi --mode rpc` with this package, its update check on and pointed at the loopback registry.
 * Not `--offline` (that sets PI_OFFLINE=1): PI_OFFLINE=0 is "not offline" for this package and Pi alike, and
 * still keeps Pi 1.x's own model-catalog refresh off the network (it runs only while PI_OFFLINE is unset).
 */
function startPi(offline: boolean): PiRpcClient {
  const args = LEAN_PI_ARGS.filter((arg) => arg !== "--offline");
  return startPiRpc({
    args: [...args, ...(offline ? ["--offline"] : []), "-e", PACKAGE_ROOT],
    env: { ...agent.env, PI_OFFLINE: "0", PI_BG_DISABLE_UPDATE_CHECK: "", PI_BG_REGISTRY_URL: registry.url },
    cwd,
  });
}

async function bgUpdate(pi: PiRpcClient): Promise<string> {
  const mark = pi.events.length;
  await pi.request({ type: "prompt", message: "/bg-update" });
  return String((await pi.waitFor(isNotice, 10_000, mark)).message);
}

async function withPi(offline: boolean, body: (pi: PiRpcClient) => Promise<void>): Promise<void> {
  const pi = startPi(offline);
  try {
    await body(pi);
  } finally {
    expect((await pi.close()).groupSurvivors).toBe(false);
  }
}

describe("the update check in a real Pi", () => {
  it("a newer release: one GET of the package's metadata, the footer segment, and /bg-update says how to install it", async () => {
    registry.answer(NAME, { kind: "published", latest: "99.1.0" });
    await withPi(false, async (pi) => {
      const status = await pi.waitFor(isUpdateStatus, 15_000);
      expect(status.statusText).toBe("⬆ v99.1.0 /bg-update");
      const report = await bgUpdate(pi);
      expect(report).toContain(`${NAME} 99.1.0 is available`);
      expect(report).toContain(`pi install npm:${NAME}@99.1.0`);
      expect(registry.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`GET /${NAME}`]);
    });
  });

  it("404 (not on the registry): nothing in the footer, and /bg-update says there is no newer release", async () => {
    registry.answer(NAME, { kind: "not_found" });
    await withPi(false, async (pi) => {
      await expectEventually(async () => registry.requests.length === 1, 15_000);
      expect(await bgUpdate(pi)).toContain("no newer release");
      expect(pi.events.filter(isUpdateStatus)).toEqual([]);
    });
  });

  it("a registry that never answers does not hold up the session; /bg-update names the timeout", async () => {
    registry.answer(NAME, { kind: "stall" });
    await withPi(false, async (pi) => {
      await expectEventually(async () => registry.requests.length === 1, 15_000);
      // Pi answers while the lookup is still in flight (the registry holds its connection open).
      expect((await pi.request({ type: "get_state" }, 10_000)).success).toBe(true);
      expect(registry.inFlight()).toBe(1);
      expect(await bgUpdate(pi)).toContain("could not check for a newer release: registry_timeout");
      await expectEventually(async () => registry.inFlight() === 0);
      expect(pi.events.filter(isUpdateStatus)).toEqual([]);
    });
  });

  it("pi --offline (PI_OFFLINE=1): no request reaches the registry, and /bg-update says why", async () => {
    registry.answer(NAME, { kind: "published", latest: "99.1.0" });
    await withPi(true, async (pi) => {
      expect(await bgUpdate(pi)).toContain("is off (PI_OFFLINE is set)");
      expect(pi.events.filter(isUpdateStatus)).toEqual([]);
      expect(registry.requests).toEqual([]);
    });
  });
});
