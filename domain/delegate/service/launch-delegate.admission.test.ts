import { describe, expect, it } from "vitest";
import { err, ok } from "../../shared/model/result.ts";
import { supportedEvidence } from "../model/delegate-fixtures.test-support.ts";
import type { DelegateLaunchRequest } from "./delegate-ports.ts";
import { launchDelegate } from "./launch-delegate.ts";
import { HOST, request, world, type World } from "./launch-delegate.test-support.ts";

describe("launchDelegate: admission leaves nothing behind", () => {
  const refusals: [string, () => Promise<World>, Partial<DelegateLaunchRequest>, string][] = [
    ["missing hook evidence", () => world({ evidence: false }), {}, "delegate_hook_contract_unsupported"],
    [
      "an unproven Pi version",
      () => world(),
      { host: { ...HOST, piVersion: "0.80.0" } },
      "delegate_hook_contract_unsupported",
    ],
    [
      "invalid arguments",
      () => world(),
      { rawArguments: { name: "n", prompt: "p", shell: true } },
      "invalid_arguments",
    ],
    ["a missing guard", () => world({ guard: false }), {}, "delegate_isolation_unsupported"],
    ["no Pi CLI", () => world(), { host: { ...HOST, cliPath: undefined } }, "delegate_isolation_unsupported"],
    ["an unknown route", () => world(), { currentRoute: { provider: "p", model: "gone" } }, "route_unresolved"],
    [
      "a route without a window",
      () => world(),
      { currentRoute: { provider: "p", model: "nowindow" } },
      "route_capacity_unknown",
    ],
    [
      "an unreadable conversation",
      () => world({ conversation: { capture: () => err({ code: "context_capture_failed", message: "boom" }) } }),
      {},
      "seed_projection_failed",
    ],
    [
      "a conversation over budget",
      () =>
        world({
          conversation: {
            capture: () =>
              ok({ cwd: "/proj", systemPrompt: "s", messages: [{ role: "user", content: "x".repeat(20_000) }] }),
          },
        }),
      { currentRoute: { provider: "p", model: "small" } },
      "seed_budget_exceeded",
    ],
    [
      "an anthropic route without the sanitizer",
      () => world(),
      {
        host: { ...HOST, anthropicSanitizerPath: undefined },
        currentRoute: { provider: "anthropic", model: "c" },
        availableModels: [{ provider: "anthropic", model: "c", contextWindow: 200_000 }],
      },
      "delegate_isolation_unsupported",
    ],
  ];

  it.each(refusals)("%s: typed refusal, zero children, zero artifacts", async (_what, make, overrides, code) => {
    const w = await make();
    const result = await launchDelegate(w.ports, request(overrides));
    expect(result.ok ? "launched" : result.error.code).toBe(code);
    expect(result.ok ? true : result.error.childCreated).toBe(false);
    expect(w.launcher.launches).toHaveLength(0);
    expect(w.files.listDir("/proj")).toEqual([]);
  });

  it("a release with no recorded evidence is proved at launch: launched when the proof holds", async () => {
    const w = await world();
    let proofs = 0;
    const prove = async () => {
      proofs += 1;
      return { ...supportedEvidence(), pi_version: "1.9.0" };
    };
    const result = await launchDelegate(
      w.ports,
      request({ host: { ...HOST, piVersion: "1.9.0", proveHookContract: prove } }),
    );
    expect(result.ok ? "launched" : result.error.message).toBe("launched");
    expect(proofs).toBe(1);
    expect(w.launcher.launches).toHaveLength(1);
  });

  it("a release whose proof fails, or cannot run, is refused naming what failed, with zero children", async () => {
    const broken = {
      ...supportedEvidence(),
      pi_version: "1.9.0",
      context: { ...supportedEvidence().context, abort_terminates_run: false },
    };
    const cases: [() => Promise<unknown>, string][] = [
      [async () => broken, "`ctx.abort()` from `context` terminates the run"],
      [
        async () => {
          throw new Error("the probe Pi exited 1");
        },
        "proving it there failed: the probe Pi exited 1",
      ],
    ];
    for (const [prove, said] of cases) {
      const w = await world();
      const result = await launchDelegate(
        w.ports,
        request({ host: { ...HOST, piVersion: "1.9.0", proveHookContract: prove } }),
      );
      expect(result.ok ? "launched" : result.error.code).toBe("delegate_hook_contract_unsupported");
      expect(result.ok ? "" : result.error.message).toContain(said);
      expect(w.launcher.launches).toHaveLength(0);
      expect(w.files.listDir("/proj")).toEqual([]);
    }
  });

  it("recorded evidence is used as it is: no proof runs for a recorded release", async () => {
    const w = await world();
    const result = await launchDelegate(
      w.ports,
      request({ host: { ...HOST, proveHookContract: () => Promise.reject(new Error("must not run")) } }),
    );
    expect(result.ok).toBe(true);
  });

  it("a failed seed write starts no child", async () => {
    const w = await world();
    w.files.failNext("replaceAtomic", "ENOSPC");
    const result = await launchDelegate(w.ports, request());
    expect(result.ok ? "launched" : result.error).toMatchObject({ code: "seed_persist_failed", childCreated: false });
    expect(w.launcher.launches).toHaveLength(0);
  });
});
