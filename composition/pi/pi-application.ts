import type { ApplicationAccess, ApplicationServices } from "../../domain/tools/service/tool-catalogue.ts";
import type { FusionLauncher } from "../../domain/fusion/service/fusion-launch.ts";
import type { LazySession } from "./lazy-session.ts";
import type { Services } from "../services.ts";

/** The application services of the current Pi session (built on first need by lazy-session.ts), for the tools and commands. */
export class PiApplication implements ApplicationAccess {
  constructor(private readonly session: LazySession) {}

  /** `/fusion`. */
  readonly launchFusion: FusionLauncher = async (launch) => (await (await this.opened()).fusion()).launch(launch);

  async ready(): Promise<ApplicationServices> {
    return (await this.opened()).application;
  }

  built(): ApplicationServices | undefined {
    return this.session.services()?.application;
  }

  private async opened(): Promise<Services> {
    await this.session.ready();
    const services = this.session.services();
    if (services === undefined) throw new Error("the Pi session ended while its services were being built");
    return services;
  }
}
