export interface UnrefDelay {
  readonly done: Promise<void>;
  over(): boolean;
  cancel(): void;
}

/** A delay that never keeps the host process alive. */
export function unrefDelay(ms: number): UnrefDelay {
  let finished = false;
  let timer: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      finished = true;
      resolve();
    }, ms);
    timer.unref();
  });
  return { done, over: () => finished, cancel: () => clearTimeout(timer) };
}
