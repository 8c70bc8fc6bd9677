/**
 * The Docker Engine's multiplexed stream (a container without a TTY): frames of an 8-byte header — the stream
 * (1 stdout, 2 stderr), three zero bytes, the payload's length (big endian) — and the payload. Chunks from the
 * connection split frames anywhere; this reassembles them without copying whole payloads twice.
 */
export class DockerLogFrames {
  #pending: Buffer = Buffer.alloc(0);
  /** Payload bytes passed on so far, both streams together. */
  delivered = 0;

  /** `skipBytes`: payload bytes a reader already has (the log replays from its start), not passed on again. */
  constructor(
    private readonly onPayload: (stream: 1 | 2, bytes: Buffer) => void,
    private skipBytes = 0,
  ) {}

  push(chunk: Buffer): void {
    let data = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    while (data.length >= 8) {
      const length = data.readUInt32BE(4);
      if (data.length < 8 + length) break;
      const stream = data[0] === 2 ? 2 : 1;
      const skipped = Math.min(this.skipBytes, length);
      this.skipBytes -= skipped;
      if (length > skipped) {
        this.delivered += length - skipped;
        this.onPayload(stream, data.subarray(8 + skipped, 8 + length));
      }
      data = data.subarray(8 + length);
    }
    this.#pending = data;
  }
}
