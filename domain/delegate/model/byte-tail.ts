/** Keeps the last `capacity` bytes of a stream and counts all of them. */
export class ByteTail {
  readonly #capacity: number;
  #chunks: Uint8Array[] = [];
  #kept = 0;
  #total = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get total(): number {
    return this.#total;
  }

  push(chunk: Uint8Array): void {
    this.#total += chunk.length;
    this.#chunks.push(chunk);
    this.#kept += chunk.length;
    while (this.#chunks.length > 1 && this.#kept - (this.#chunks[0]?.length ?? 0) >= this.#capacity) {
      this.#kept -= this.#chunks.shift()?.length ?? 0;
    }
  }

  /** The kept bytes (the last `capacity` at most) and how many earlier bytes were not kept. */
  tail(): { readonly bytes: Uint8Array; readonly droppedBefore: number } {
    const all = new Uint8Array(this.#kept);
    let at = 0;
    for (const chunk of this.#chunks) {
      all.set(chunk, at);
      at += chunk.length;
    }
    const bytes = all.length > this.#capacity ? all.subarray(all.length - this.#capacity) : all;
    return { bytes, droppedBefore: this.#total - bytes.length };
  }
}
