import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type { RegistryFailure, ReleaseRegistry } from "../../ports/release-registry.ts";

/** An in-memory registry: published latest versions by name; `calls` counts lookups. */
export class FakeReleaseRegistry implements ReleaseRegistry {
  calls = 0;
  private readonly latest = new Map<string, string>();
  private failure: RegistryFailure | undefined;

  publish(name: string, latest: string): this {
    this.latest.set(name, latest);
    return this;
  }

  /** Every later lookup fails with this error. */
  failWith(failure: RegistryFailure): this {
    this.failure = failure;
    return this;
  }

  async latestVersion(name: string, signal: AbortSignal): Promise<Result<string | undefined, RegistryFailure>> {
    this.calls++;
    if (signal.aborted) return err({ code: "registry_timeout", message: "the lookup was aborted" });
    if (this.failure !== undefined) return err(this.failure);
    return ok(this.latest.get(name));
  }
}
