import { describe, expect, it } from "vitest";
import { normalizeRunArguments, type RunRequest } from "../../domain/tasks/model/run-request.ts";
import {
  agentLaunchPlanner,
  NON_POSIX_SHELL_REASON,
  PI_CLI_NOT_FOUND_REASON,
  TELEMETRY_DISABLED_REASON,
  type AgentLaunchPlannerOptions,
} from "./agent-launch-planner.ts";

const BASE: AgentLaunchPlannerOptions = {
  telemetryDisabled: false,
  env: { SHELL: "/bin/bash" },
  nodePath: "/usr/bin/node",
  piCliPath: "/opt/pi/dist/cli.js",
  windows: new Map(),
  wrapperPath: "/pkg/wrapper.mjs",
};

function request(command: string, isAgent = true): RunRequest {
  const r = normalizeRunArguments({ command, isAgent });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const shell = (command: string) => ({ kind: "shell", command }) as const;

describe("agentLaunchPlanner", () => {
  it("wraps a bare pi -p of an agent task: the prefixed command, and a filter that yields telemetry", () => {
    const plan = agentLaunchPlanner(BASE)(request('pi -p "hi"'), shell('pi -p "hi"'));
    expect(plan.command.kind === "shell" && plan.command.command).toMatch(
      /^\{ __pi_bg_stdout_id=.*\npi\(\) \{ .*'\/pkg\/wrapper\.mjs' '\/usr\/bin\/node' '\/opt\/pi\/dist\/cli\.js' -- "\$@"; \}\npi -p "hi"$/s,
    );
    expect(plan.stdoutFilter?.telemetry).toBeTypeOf("function");
    expect(plan.telemetryUnavailableReason).toBeUndefined();
  });

  it("each launch gets its own filter", () => {
    const planner = agentLaunchPlanner(BASE);
    expect(planner(request("pi -p a"), shell("pi -p a")).stdoutFilter).not.toBe(
      planner(request("pi -p a"), shell("pi -p a")).stdoutFilter,
    );
  });

  it("leaves non-agent tasks exactly as given, with no reason", () => {
    expect(agentLaunchPlanner(BASE)(request("pi -p x", false), shell("pi -p x"))).toEqual({
      command: shell("pi -p x"),
    });
  });

  it.each([
    ["disabled by env", { telemetryDisabled: true }, "pi -p x", TELEMETRY_DISABLED_REASON],
    ["a fish shell", { env: { SHELL: "/usr/bin/fish" } }, "pi -p x", `${NON_POSIX_SHELL_REASON}: fish`],
    ["a path-qualified pi", {}, "/usr/local/bin/pi -p x", "path-qualified-pi-not-wrapped"],
    ["an interactive pi", {}, "pi", "pi-not-in-print-or-json-mode"],
    ["no pi at all", {}, "npm test", "no-pi-command"],
    ["no Pi CLI found", { piCliPath: undefined }, "pi -p x", PI_CLI_NOT_FOUND_REASON],
  ] as const)("records why an agent task is not wrapped: %s", (_label, overrides, command, reason) => {
    const plan = agentLaunchPlanner({ ...BASE, ...overrides })(request(command), shell(command));
    expect(plan).toEqual({ command: shell(command), telemetryUnavailableReason: reason });
  });
});
