import { describe, expect, it } from "vitest";
import { parseBgCommandLine } from "./bg-command-line.ts";
import { launchReceipt } from "./launch-receipt.ts";
import { normalizeRunArguments } from "./run-request.ts";

const base = { name: "dev server", command: "npm run dev", isAgent: false };

describe("surviveReload on bg_run and /bg", () => {
  it("is off unless asked for, and then present only as true", () => {
    const off = normalizeRunArguments(base);
    expect(off.ok && "surviveReload" in off.value).toBe(false);
    const explicitOff = normalizeRunArguments({ ...base, surviveReload: false });
    expect(explicitOff.ok && "surviveReload" in explicitOff.value).toBe(false);
    expect(normalizeRunArguments({ ...base, surviveReload: true })).toMatchObject({
      ok: true,
      value: { surviveReload: true },
    });
  });

  it("is refused for agent runs with a typed error that says what to do", () => {
    const r = normalizeRunArguments({ ...base, isAgent: true, surviveReload: true });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe("invalid_arguments");
    expect(r.error.message).toContain("'surviveReload' is only for shell tasks (isAgent: false)");
  });

  it("must be a boolean", () => {
    expect(normalizeRunArguments({ ...base, surviveReload: "yes" }).ok).toBe(false);
  });

  it("/bg --survive-reload sets it; with --agent the request is refused", () => {
    const line = parseBgCommandLine("--survive-reload --name web -- npm run dev");
    expect(line).toEqual({
      ok: true,
      value: { command: "npm run dev", isAgent: false, name: "web", surviveReload: true },
    });
    const agent = parseBgCommandLine("--agent --survive-reload pi -p hi");
    expect(agent.ok && normalizeRunArguments(agent.value).ok).toBe(false);
  });

  it("the bg_run receipt says the task survives a reload, and only then", () => {
    const task = {
      schema_version: "pi-background-tasks.task.v1" as const,
      id: "b1",
      name: "web",
      command: "npm run dev",
      status: "running" as const,
      outputPath: ".pi/tasks/s/b1.output",
      cwd: "/w",
      startTime: 1,
      bytesWritten: 0,
      output: {
        producedBytes: 0,
        keptBytes: 0,
        elidedBytes: 0,
        capBytes: 4096,
        capAction: "keep_head_and_tail" as const,
      },
      isAgent: false,
      notified: false,
      notifyOnCompletion: true,
      triggerOnCompletion: true,
    };
    expect(launchReceipt({ ...task, surviveReload: true })).toContain("Survives reload: yes");
    expect(launchReceipt(task)).not.toContain("Survives reload");
  });
});
