import { probeExtension } from "./hook-probe-extension.ts";

/** Loaded second by the hook-contract gate. */
export default probeExtension("SECOND");
