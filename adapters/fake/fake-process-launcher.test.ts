import { describe, expect, it } from "vitest";
import { describeProcessLauncherContract } from "../../contract-tests/process-launcher.contract.ts";
import { drain } from "../../contract-tests/process-output.ts";
import type { ProcessScenario } from "../../contract-tests/process-scenarios.ts";
import type { LaunchSpec } from "../../ports/process-launcher.ts";
import { FakeClock } from "./fake-clock.ts";
import { FakeProcessLauncher, type FakeScript } from "./fake-process-launcher.ts";

const spec = (command: string, stdin?: Uint8Array): LaunchSpec => ({
  command: { kind: "shell", command },
  cwd: "/work",
  env: {},
  ...(stdin === undefined ? {} : { stdin }),
});

function scriptFor(scenario: ProcessScenario): FakeScript {
  switch (scenario.kind) {
    case "print-and-exit":
      return { stdout: [scenario.stdout], stderr: [scenario.stderr], exit: { code: scenario.exitCode } };
    case "echo-stdin":
      return { echoStdin: true, exit: { code: 0 } };
    case "ignore-stdin":
      return { exit: { code: 0 } };
    case "exit-by-signal":
      return { exit: { signal: "SIGTERM" } };
    case "run-until-killed":
      return { stdout: ["ready\n"] };
    case "ignore-sigterm":
      return { stdout: ["ready\n"], ignoresSigterm: true };
    case "grandchild-and-wait":
      return { stdout: ["ready\n"], grandchild: { ignoresSigterm: scenario.grandchildIgnoresSigterm } };
    case "detached-child": {
      const child = { exitAfterMs: scenario.runMs };
      return {
        stdout: [(pids) => `detached ${pids.escapee ?? pids.grandchild}\n`, "ready\n"],
        exit: { code: 0 },
        ...(scenario.leavesGroup ? { escapee: child } : { grandchild: child }),
      };
    }
    case "grandchild-holds-output":
      return { stdout: ["early\n"], exit: { code: 0 }, grandchild: { stdout: ["late\n"], exitAfterMs: 200 } };
    case "escapee-and-wait":
      return {
        stdout: [(pids) => `escapee ${pids.escapee}\n`, "ready\n"],
        escapee: { ignoresSigterm: scenario.escapeeIgnoresSigterm },
      };
    case "background-holds-output":
      return {
        stdout: [(pids) => `holder ${pids.grandchild}\nholder ${pids.escapee}\n`, "ready\n"],
        exit: { code: 0 },
        grandchild: { holdsPipes: true },
        escapee: { holdsPipes: true },
      };
    case "cannot-start":
      return { spawnError: "working directory /missing does not exist (ENOENT)" };
  }
}

describeProcessLauncherContract("FakeProcessLauncher", () => {
  const scenarios = new Map<string, ProcessScenario>();
  const launcher = new FakeProcessLauncher({
    drainGraceMs: 300,
    strayKillGraceMs: 300,
    script: (launched) => {
      const key = launched.command.kind === "shell" ? launched.command.command : "";
      const scenario = scenarios.get(key);
      if (scenario === undefined) throw new Error(`unscripted launch ${key}`);
      return scriptFor(scenario);
    },
  });
  return {
    launcher,
    specFor(scenario) {
      const key = `scenario-${scenarios.size}-${scenario.kind}`;
      scenarios.set(key, scenario);
      return spec(key, "stdin" in scenario ? scenario.stdin : undefined);
    },
    groupAlive: async (pgid) => launcher.groupAlive(pgid),
    alive: async (pid) => launcher.alive(pid),
  };
});

describe("FakeProcessLauncher specifics", () => {
  it("records every launch, failed ones included, and spawns nothing unasked", () => {
    const launcher = new FakeProcessLauncher().on("broken", { spawnError: "no" });
    expect(launcher.launches).toEqual([]);
    expect(launcher.launch(spec("broken")).ok).toBe(false);
    expect(launcher.launch(spec("fine")).ok).toBe(true);
    expect(launcher.launches.map((l) => (l.command.kind === "shell" ? l.command.command : ""))).toEqual([
      "broken",
      "fine",
    ]);
    expect(launcher.processes).toHaveLength(1);
  });

  it("runs scripted durations and kill graces on the injected clock", async () => {
    const clock = new FakeClock();
    const launcher = new FakeProcessLauncher({ clock })
      .on("slow", { stdout: ["tick\n"], exit: { code: 0 }, runMs: 5_000 })
      .on("stubborn", { ignoresSigterm: true });
    const slow = launcher.launch(spec("slow"));
    const stubborn = launcher.launch(spec("stubborn"));
    if (!slow.ok || !stubborn.ok) throw new Error("launch failed");
    const slowOut = drain(slow.value.stdout);
    clock.advance(4_999);
    expect(launcher.groupAlive(slow.value.pid)).toBe(true);
    clock.advance(1);
    expect(await slow.value.exited).toEqual({ code: 0, signal: null });
    expect(new TextDecoder().decode(await slowOut)).toBe("tick\n");

    const killed = stubborn.value.killGroup({ graceMs: 2_000 });
    await Promise.resolve();
    expect(launcher.groupAlive(stubborn.value.pid)).toBe(true);
    clock.advance(2_000);
    await killed;
    expect(await stubborn.value.exited).toEqual({ code: null, signal: "SIGKILL" });
    expect(launcher.processes[1]?.signals).toEqual(["SIGTERM", "SIGKILL"]);
  });

  it("lets a test drive output and the exit by hand", async () => {
    const launcher = new FakeProcessLauncher().on("manual", {});
    const launched = launcher.launch(spec("manual"));
    const proc = launcher.processes[0];
    if (!launched.ok || proc === undefined) throw new Error("launch failed");
    const out = drain(launched.value.stdout);
    proc.write("stdout", "one ");
    proc.write("stdout", new TextEncoder().encode("two"));
    proc.finish({ code: 7 });
    expect(() => proc.write("stdout", "late")).toThrow();
    expect(new TextDecoder().decode(await out)).toBe("one two");
    expect(await launched.value.exited).toEqual({ code: 7, signal: null });
    expect(launcher.running()).toEqual([]);
  });

  it("does not signal a group that is already gone", async () => {
    const launcher = new FakeProcessLauncher();
    const launched = launcher.launch(spec("quick"));
    if (!launched.ok) throw new Error("launch failed");
    await launched.value.exited;
    await launched.value.killGroup({ graceMs: 10 });
    expect(launcher.processes[0]?.signals).toEqual([]);
  });
});
