import { piChildArgs } from "../../shared/model/pi-child-argv.ts";
import { BASELINE_PI_FLAGS } from "../../shared/model/pi-cli-flags.ts";
import type { AttestedRunRequest } from "./attested-arguments.ts";

/** `pi` plus its arguments as the run's record shows them; the prompt is not among them (it goes over stdin). */
export function logicalPiArgv(request: AttestedRunRequest): readonly string[] {
  const route = {
    provider: request.provider,
    model: request.model,
    ...(request.thinking === undefined ? {} : { thinking: request.thinking }),
  };
  // The user's own run: no isolation flag, so nothing depends on what the CLI offers.
  return ["pi", ...piChildArgs({ role: "attested", route, extraArgs: request.extraPiArgs }, BASELINE_PI_FLAGS)];
}
