/** The chunks of one stream not read yet, as an async iterable that ends when the stream does. */
export class ByteQueue {
  #chunks: Uint8Array[] = [];
  size = 0;
  #ended = false;
  #wake: (() => void) | undefined;

  constructor(private readonly onDrained: () => void) {}

  push(bytes: Uint8Array): void {
    this.#chunks.push(bytes);
    this.size += bytes.length;
    this.#wake?.();
  }

  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  async *iterate(): AsyncGenerator<Uint8Array, void, undefined> {
    for (;;) {
      const chunk = this.#chunks.shift();
      if (chunk !== undefined) {
        this.size -= chunk.length;
        if (this.#chunks.length === 0) this.onDrained();
        yield chunk;
        continue;
      }
      if (this.#ended) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = undefined;
    }
  }
}
