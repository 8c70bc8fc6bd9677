/**
 * A scripted child pipe. Like a real pipe under Node: a consumer that starts iterating gets every
 * chunk and `settled` waits until it has read to the end (or stopped early); a pipe nobody ever
 * touched is discarded when it ends, so it never holds the exit back.
 */
export class FakeOutputStream implements AsyncIterable<Uint8Array> {
  #chunks: Uint8Array[] = [];
  #ended = false;
  #touched = false;
  #finished = false;
  #wake: (() => void) | undefined;
  #markSettled: () => void = () => undefined;
  readonly settled: Promise<void> = new Promise((resolve) => (this.#markSettled = resolve));

  push(chunk: Uint8Array): void {
    if (this.#ended) throw new Error("write after the fake pipe ended");
    if (chunk.length === 0) return;
    this.#chunks.push(chunk.slice());
    this.#wakeReader();
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (!this.#touched) {
      this.#chunks = [];
      this.#settle();
    }
    this.#wakeReader();
  }

  get ended(): boolean {
    return this.#ended;
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    if (this.#touched) throw new Error("a fake pipe can be iterated only once");
    this.#touched = true;
    return {
      next: async () => this.#next(),
      return: async () => {
        this.#chunks = [];
        this.#settle();
        return { done: true, value: undefined };
      },
    };
  }

  async #next(): Promise<IteratorResult<Uint8Array>> {
    for (;;) {
      if (this.#finished) return { done: true, value: undefined };
      const chunk = this.#chunks.shift();
      if (chunk !== undefined) return { done: false, value: chunk };
      if (this.#ended) {
        this.#settle();
        return { done: true, value: undefined };
      }
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  #settle(): void {
    this.#finished = true;
    this.#markSettled();
  }

  #wakeReader(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
