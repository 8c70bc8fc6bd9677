/**
 * One deadline for a whole fetch, combined with the caller's cancellation. `signal` aborts on either;
 * `timedOut` / `callerAborted` say which, so errors can be typed without inspecting exception classes.
 */
export interface FetchDeadline {
  readonly signal: AbortSignal;
  readonly timedOut: boolean;
  readonly callerAborted: boolean;
  dispose(): void;
}

export function startDeadline(timeoutMs: number, callerSignal?: AbortSignal): FetchDeadline {
  const controller = new AbortController();
  let timedOut = false;
  let callerAborted = false;
  const onCallerAbort = () => {
    callerAborted = true;
    controller.abort(new Error("the fetch was cancelled by the caller"));
  };
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`the fetch did not finish within ${timeoutMs} ms`));
  }, timeoutMs);
  timer.unref();
  if (callerSignal?.aborted === true) onCallerAbort();
  else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    get callerAborted() {
      return callerAborted;
    },
    dispose() {
      clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onCallerAbort);
    },
  };
}

export const DEADLINE_PASSED: unique symbol = Symbol("deadline passed");

/** Settles with the promise, or with `DEADLINE_PASSED` as soon as the signal aborts (the promise is left to settle unobserved). */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof DEADLINE_PASSED> {
  if (signal.aborted) return Promise.resolve(DEADLINE_PASSED);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(DEADLINE_PASSED);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
