import { probeExtension } from "./hook-probe-extension.ts";

/** Loaded first by the hook-contract gate. */
export default probeExtension("FIRST");
