/** What the Pi adapter (and any other host) needs to run delegates. */
export { launchDelegate, type DelegateHandle, type DelegateLaunch } from "./launch-delegate.ts";
export { retrieveDelegateResult } from "./retrieve-delegate-result.ts";
export type { DelegatePorts, DelegateHost, DelegateLaunchRequest } from "./delegate-ports.ts";
export {
  DelegateArgumentsSchema,
  DELEGATE_TOOL,
  parseDelegateArguments,
  type DelegateArguments,
} from "../model/delegate-arguments.ts";
export type {
  DelegateError,
  DelegateErrorCode,
  DelegateAdmissionCode,
  DelegateRunCode,
  DelegateRetrievalCode,
} from "../model/delegate-error.ts";
export type { DelegateLaunchReceipt } from "../model/launch-receipt.ts";
export type { DelegateOutcome, OutcomeState } from "../model/delegate-outcome.ts";
export { RESULT_VIEW_SCHEMA, type DelegateResultView } from "../model/delegate-result-view.ts";
export { DELEGATE_ARTIFACT, DELEGATE_ENV, delegateRunDir, type DelegateLocation } from "../model/delegate-artifacts.ts";
export type { AvailableModel, RouteRef } from "../model/delegate-route.ts";
export { INLINE_ANSWER_CAP_BYTES } from "../model/delegate-limits.ts";
