import type { ApplicationAccess, ApplicationServices } from "../../domain/tools/service/tool-catalogue.ts";
import type { FusionLauncher } from "../../domain/fusion/service/fusion-launch.ts";
import { err } from "../../domain/shared/model/result.ts";
import { sessionRequired } from "../../domain/shared/service/host-tool-spec.ts";
import type { BudgetGateFactory } from "../fusion-runs.ts";
import type { LazySession } from "./lazy-session.ts";
import { OnFirstUse } from "../on-first-use.ts";
import type { SessionServices } from "./session-services.ts";

/**
 * The application services of the current Pi session, for the tool catalogue and the commands. The task
 * runtime comes with the session's container (lazy-session.ts); Fusion, and the delegate runner with the result
 * reader, are imported on their first use, since most sessions never start either.
 */
export class PiApplication implements ApplicationAccess {
  private readonly fusion: OnFirstUse<import("../fusion-runs.ts").FusionRuns>;
  private readonly delegates = new OnFirstUse(async () => {
    const [{ DelegateRuns }, { NodeFileCommitter }, { readTaskResult }] = await Promise.all([
      import("../delegate-runs.ts"),
      import("../../adapters/node/node-file-committer.ts"),
      import("../../domain/results/service/read-task-result.ts"),
    ]);
    return { runs: new DelegateRuns(), files: new NodeFileCommitter(), readTaskResult };
  });
  private cache: { readonly of: SessionServices; readonly services: ApplicationServices } | undefined;

  constructor(
    private readonly session: LazySession,
    budgetGate: () => Promise<BudgetGateFactory>,
  ) {
    this.fusion = new OnFirstUse(async () => {
      const [{ FusionRuns }, gate] = await Promise.all([import("../fusion-runs.ts"), budgetGate()]);
      return new FusionRuns(gate);
    });
  }

  /** `/fusion` and the brainstorm tool. */
  readonly launchFusion: FusionLauncher = async (launch) => (await this.fusion.get()).launch(launch);

  async ready(): Promise<ApplicationServices> {
    await this.session.ready();
    const built = this.built();
    if (built === undefined) throw new Error("the Pi session ended while its services were being built");
    return built;
  }

  built(): ApplicationServices | undefined {
    const of = this.session.services();
    if (of === undefined) return undefined;
    if (this.cache?.of !== of) this.cache = { of, services: this.servicesOf(of) };
    return this.cache.services;
  }

  /** session_shutdown: the session's tasks stop first, then live Fusion runs and delegates. */
  async close(): Promise<void> {
    await this.session.close();
    await (await this.fusion.ifCreated())?.shutdown();
    await (await this.delegates.ifCreated())?.runs.shutdown();
  }

  private servicesOf({ runtime, attested, clock }: SessionServices): ApplicationServices {
    return {
      tasks: runtime,
      clock,
      attested,
      brainstorm: async (request, { call, signal, onProgress }) =>
        call === undefined
          ? err(sessionRequired("fusion_brainstorm"))
          : this.launchFusion({
              ...request,
              source: "tool",
              toolCallId: call.toolCallId,
              session: call.session,
              ...(signal === undefined ? {} : { signal }),
              onProgress,
            }),
      validate: async (request, call) =>
        call === undefined
          ? err(sessionRequired("fusion_validate"))
          : (await this.fusion.get()).validate(request, call.session, runtime),
      delegate: async (raw, call) => (await this.delegates.get()).runs.launch(raw, call, runtime),
      results: async (query) => {
        const { files, runs, readTaskResult } = await this.delegates.get();
        return readTaskResult({ files, runtime, delegates: runs }, query);
      },
    };
  }
}
