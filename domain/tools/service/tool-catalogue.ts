import type { Clock } from "../../../ports/clock.ts";
import type { AttestedPiRunner } from "../../attested/service/attested-pi-runner.ts";
import { attestedToolSpec } from "../../attested/service/attested-tool-spec.ts";
import { delegateToolSpec, type DelegateLauncher } from "../../delegate/service/delegate-tool-spec.ts";
import { fusionBrainstormToolSpec, type BrainstormLauncher } from "../../fusion/service/brainstorm-tool-spec.ts";
import { bgResultToolSpec, type ResultReader } from "../../results/service/bg-result-spec.ts";
import type { AnyHostToolSpec } from "../../shared/service/host-tool-spec.ts";
import type { CompletionDelivery } from "../../tasks/model/launch-receipt.ts";
import type { TaskRuntime } from "../../tasks/service/task-runtime.ts";
import { taskToolSpecs } from "../../tasks/service/task-tool-specs.ts";
import { waitToolSpec } from "../../tasks/service/task-wait-spec.ts";
import { fusionValidateToolSpec, type ValidateLauncher } from "../../validate/service/validate-tool-spec.ts";

/** The use cases behind the tools, for one host session. Built by the host's wiring, on first need. */
export interface ApplicationServices {
  readonly tasks: TaskRuntime;
  readonly clock: Clock;
  readonly brainstorm: BrainstormLauncher;
  readonly validate: ValidateLauncher;
  readonly results: ResultReader;
  /** Offered by hosts with sessions only. */
  readonly delegate?: DelegateLauncher;
  readonly attested?: Pick<AttestedPiRunner, "start">;
}

/** How the tools reach the services: every call first awaits `ready()`, which builds them on first need. */
export interface ApplicationAccess {
  ready(): Promise<ApplicationServices>;
  /** The services `ready()` resolved with, while they live. */
  built(): ApplicationServices | undefined;
}

/** What decides which tools a host serves, and their wording. */
export interface HostProfile {
  /** How the end of a background task reaches the agent: a new turn (Pi), or a notice plus bg_wait (MCP). */
  readonly delivery: CompletionDelivery;
  /** True when calls carry the caller's session (Pi): the session tools are served, brainstorm sees the conversation. */
  readonly sessions: boolean;
}

/**
 * Every tool of the package, defined once. A host maps these specs onto its own tool API (Pi:
 * adapters/pi/pi-tool.ts, MCP: adapters/mcp/mcp-tool-server.ts); adding a tool is one entry here.
 */
export function toolCatalogue(app: ApplicationAccess, host: HostProfile): AnyHostToolSpec[] {
  const services = (): ApplicationServices => {
    const built = app.built();
    if (built === undefined) throw new Error("a tool ran before its host's services were ready");
    return built;
  };
  const runtime = () => services().tasks;
  const specs: AnyHostToolSpec[] = [
    ...taskToolSpecs({ runtime, now: () => services().clock.now(), delivery: host.delivery }),
    ...(host.delivery === "notification_and_wait" ? [waitToolSpec({ runtime, clock: lazyClock(services) })] : []),
    bgResultToolSpec(host.delivery, (query, session) => services().results(query, session)),
    fusionValidateToolSpec(host.delivery, (request, call) => services().validate(request, call)),
    fusionBrainstormToolSpec(host.sessions ? "session_projection" : "clean_task", (request, call) =>
      services().brainstorm(request, call),
    ),
    delegateToolSpec((raw, call) => required(services().delegate, "bg_delegate")(raw, call)),
    attestedToolSpec(() => required(services().attested, "bg_run_pi_attested")),
  ];
  return specs.filter((spec) => host.sessions || spec.needsSession !== true).map((spec) => afterReady(spec, app));
}

/** The spec with its run waiting for the services first. */
function afterReady(spec: AnyHostToolSpec, app: ApplicationAccess): AnyHostToolSpec {
  return {
    ...spec,
    run: async (args, context) => {
      await app.ready();
      return spec.run(args, context);
    },
  };
}

function lazyClock(services: () => ApplicationServices): Pick<Clock, "after" | "every"> {
  return {
    after: (ms, callback) => services().clock.after(ms, callback),
    every: (ms, callback) => services().clock.every(ms, callback),
  };
}

function required<T>(service: T | undefined, tool: string): T {
  if (service === undefined)
    throw new Error(`${tool} is served, but this host's services have no implementation for it`);
  return service;
}
