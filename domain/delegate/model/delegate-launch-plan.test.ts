import { describe, expect, it } from "vitest";
import { BASELINE_PI_FLAGS } from "../../shared/model/pi-cli-flags.ts";
import {
  buildLaunchPlan,
  DELEGATE_CHILD_TOOLS,
  DELEGATE_DENIED_TOOLS,
  type LaunchPlanInput,
} from "./delegate-launch-plan.ts";
import { serialiseReadScope } from "../../confinement/model/read-scope.ts";

/** Pi 1.6.0's --help offers every isolation flag (domain/shared/model/pi-cli-flags.test.ts). */
const PI_1_FLAGS = { excludeTools: true, noMcp: true, sessionId: true, sessionDir: true };

const input = (overrides: Partial<LaunchPlanInput> = {}): LaunchPlanInput => ({
  nodePath: "/usr/bin/node",
  cliPath: "/pi/cli.js",
  artifactDir: "/proj/.pi/delegate/s-1/dt",
  childSessionId: `delegate-${"a".repeat(32)}`,
  guardExtensionPath: "/pkg/guard.ts",
  anthropicSanitizerPath: "/pkg/sanitizer.ts",
  route: { provider: "openai", model: "gpt" },
  seedSha256: "b".repeat(64),
  taskId: "dt",
  launchNonce: "c".repeat(32),
  readScope: { root: "/proj", denied: ["/proj/.pi"] },
  flags: BASELINE_PI_FLAGS,
  ...overrides,
});

describe("delegate launch plan", () => {
  it("is the exact isolated argv for Pi 0.73.1, with its own session file and the prompt left to stdin", () => {
    const plan = buildLaunchPlan(input());
    expect(plan.file).toBe("/usr/bin/node");
    expect(plan.args).toEqual([
      "/pi/cli.js",
      "--mode",
      "json",
      "--session",
      `/proj/.pi/delegate/s-1/dt/child-session/delegate-${"a".repeat(32)}.jsonl`,
      "--no-builtin-tools",
      "--tools",
      "read,grep,find,ls,delegate_read_artifact",
      "--no-extensions",
      "--no-skills",
      "--no-prompt-templates",
      "--no-themes",
      "--no-context-files",
      "--offline",
      "--extension",
      "/pkg/guard.ts",
      "--provider",
      "openai",
      "--model",
      "gpt",
    ]);
    expect(plan.env).toEqual({
      PI_BG_DELEGATE_ARTIFACT_DIR: "/proj/.pi/delegate/s-1/dt",
      PI_BG_DELEGATE_SEED_PATH: "/proj/.pi/delegate/s-1/dt/seed.json",
      PI_BG_DELEGATE_SEED_SHA256: "b".repeat(64),
      PI_BG_DELEGATE_TASK_ID: "dt",
      PI_BG_DELEGATE_LAUNCH_NONCE: "c".repeat(32),
      PI_BG_READ_SCOPE: serialiseReadScope({ root: "/proj", denied: ["/proj/.pi"] }),
      PI_SKIP_VERSION_CHECK: "1",
    });
  });

  it("where the host has the flags (Pi 1.x): its own session id in the task-owned dir, a denylist, no MCP", () => {
    const plan = buildLaunchPlan(input({ flags: PI_1_FLAGS }));
    expect(plan.args).toEqual([
      "/pi/cli.js",
      "--mode",
      "json",
      "--session-dir",
      "/proj/.pi/delegate/s-1/dt/child-session",
      "--session-id",
      `delegate-${"a".repeat(32)}`,
      "--no-builtin-tools",
      "--tools",
      "read,grep,find,ls,delegate_read_artifact",
      "--exclude-tools",
      DELEGATE_DENIED_TOOLS.join(","),
      "--no-extensions",
      "--no-mcp",
      "--no-skills",
      "--no-prompt-templates",
      "--no-themes",
      "--no-context-files",
      "--offline",
      "--extension",
      "/pkg/guard.ts",
      "--provider",
      "openai",
      "--model",
      "gpt",
    ]);
    expect([plan.sessionDir, plan.sessionFile]).toEqual(["/proj/.pi/delegate/s-1/dt/child-session", null]);
    expect(plan.isolation).toEqual({
      session: "session-id-in-session-dir",
      tools: "allowlist+denylist",
      mcp: "disabled",
      registry_checked_by_guard: true,
    });
    expect(DELEGATE_DENIED_TOOLS.filter((t) => DELEGATE_CHILD_TOOLS.includes(t))).toEqual([]);
    expect(DELEGATE_DENIED_TOOLS).toEqual(
      expect.arrayContaining(["bash", "edit", "write", "bg_delegate", "fusion_web_fetch"]),
    );
  });

  it("records the 0.73.1 equivalent as its own isolation form", () => {
    const plan = buildLaunchPlan(input());
    expect(plan.isolation).toEqual({
      session: "session-file",
      tools: "allowlist",
      mcp: "no-mcp-flag",
      registry_checked_by_guard: true,
    });
    expect(plan.sessionFile).toBe(`/proj/.pi/delegate/s-1/dt/child-session/delegate-${"a".repeat(32)}.jsonl`);
  });

  it("grants no shell, edit, write, network, recursion or Fusion tool", () => {
    const forbidden = [
      "bash",
      "edit",
      "write",
      "bg_delegate",
      "bg_result",
      "bg_run",
      "fusion_brainstorm",
      "fusion_validate",
      "fusion_web_fetch",
    ];
    for (const tool of forbidden) expect(DELEGATE_CHILD_TOOLS).not.toContain(tool);
    expect(buildLaunchPlan(input()).args).not.toContain("--session-id");
  });

  it("loads the Anthropic sanitizer before the guard for anthropic routes only", () => {
    const args = buildLaunchPlan(input({ route: { provider: "anthropic", model: "claude" } })).args;
    const at = args.indexOf("--extension");
    expect(args.slice(at, at + 4)).toEqual(["--extension", "/pkg/sanitizer.ts", "--extension", "/pkg/guard.ts"]);
  });
});
