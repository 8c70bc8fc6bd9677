import type { ApplicationAccess, ApplicationServices } from "../../domain/tools/service/tool-catalogue.ts";
import type { FusionLauncher } from "../../domain/fusion/service/fusion-launch.ts";
import { err } from "../../domain/shared/model/result.ts";
import { sessionRequired } from "../../domain/shared/service/host-tool-spec.ts";
import type { LazySession } from "./lazy-session.ts";
import type { SessionServices } from "./session-services.ts";

/**
 * The application services of the current Pi session, for the tool catalogue and the commands: what the
 * session's container resolves (lazy-session.ts), with Fusion and delegates built on their first use.
 */
export class PiApplication implements ApplicationAccess {
  private cache: { readonly of: SessionServices; readonly services: ApplicationServices } | undefined;

  constructor(private readonly session: LazySession) {}

  /** `/fusion` and the brainstorm tool. */
  readonly launchFusion: FusionLauncher = async (launch) => (await (await this.opened()).fusion()).launch(launch);

  async ready(): Promise<ApplicationServices> {
    return this.servicesOf(await this.opened());
  }

  built(): ApplicationServices | undefined {
    const of = this.session.services();
    return of === undefined ? undefined : this.servicesOf(of);
  }

  private async opened(): Promise<SessionServices> {
    await this.session.ready();
    const of = this.session.services();
    if (of === undefined) throw new Error("the Pi session ended while its services were being built");
    return of;
  }

  private servicesOf(of: SessionServices): ApplicationServices {
    if (this.cache?.of !== of) this.cache = { of, services: this.build(of) };
    return this.cache.services;
  }

  private build({ runtime, attested, clock, fusion, delegates }: SessionServices): ApplicationServices {
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
          : (await fusion()).validate(request, call.session, runtime),
      delegate: async (raw, call) => (await delegates()).launch(raw, call, runtime),
      results: async (query) => (await delegates()).taskResult(query, runtime),
    };
  }
}
