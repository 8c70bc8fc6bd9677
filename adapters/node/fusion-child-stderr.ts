import {
  FUSION_CHILD_RESULT_MARKER,
  FUSION_CHILD_WORKING_FRAME,
} from "../../domain/fusion/model/fusion-child-protocol.ts";

const MARKER = Buffer.from(FUSION_CHILD_RESULT_MARKER, "utf8");
const NEWLINE = 0x0a;

/**
 * Splits a child's stderr into metadata frames (a marker up to the next "\n", removed from the text)
 * and the rest. The `working` frame is no result: it sets `working` instead of joining `frames`. A marker
 * is recognised anywhere, also after output that lacked its newline. The rest is kept up to `keepBytes`;
 * beyond that it is only counted. Works on bytes, so chunk boundaries inside a
 * UTF-8 sequence or inside the marker do not matter.
 */
export class ChildStderrSplitter {
  readonly frames: string[] = [];
  readonly problems: string[] = [];
  /** Whether the child has sent its `working` frame. */
  working = false;
  #kept: Buffer[] = [];
  #keptBytes = 0;
  #otherBytes = 0;
  /** Normal mode: the tail that might be the start of a marker. Frame mode: the frame so far. */
  #pending: Buffer<ArrayBufferLike> = Buffer.alloc(0);
  #inFrame = false;
  #discardingFrame = false;

  constructor(
    private readonly keepBytes: number,
    private readonly maxFrameBytes: number,
  ) {}

  /** Bytes of non-frame stderr seen (kept or not). */
  get otherBytes(): number {
    return this.#otherBytes;
  }

  get droppedBytes(): number {
    return this.#otherBytes - this.#keptBytes;
  }

  kept(): Buffer {
    return Buffer.concat(this.#kept);
  }

  push(chunk: Uint8Array): void {
    let data: Buffer = Buffer.concat([this.#pending, chunk]);
    this.#pending = Buffer.alloc(0);
    while (data.length > 0) data = this.#inFrame ? this.#frameStep(data) : this.#textStep(data);
  }

  end(): void {
    if (this.#inFrame) {
      if (!this.#discardingFrame)
        this.problems.push(`stderr ended inside a metadata frame (${this.#pending.length} bytes without a newline)`);
    } else this.#keep(this.#pending);
    this.#pending = Buffer.alloc(0);
    this.#inFrame = false;
  }

  #textStep(data: Buffer): Buffer {
    const at = data.indexOf(MARKER);
    if (at >= 0) {
      this.#keep(data.subarray(0, at));
      this.#inFrame = true;
      this.#discardingFrame = false;
      return data.subarray(at + MARKER.length);
    }
    const hold = Math.min(data.length, MARKER.length - 1);
    this.#keep(data.subarray(0, data.length - hold));
    this.#pending = Buffer.from(data.subarray(data.length - hold));
    return Buffer.alloc(0);
  }

  #frameStep(data: Buffer): Buffer {
    const newline = data.indexOf(NEWLINE);
    const body = newline >= 0 ? data.subarray(0, newline) : data;
    if (!this.#discardingFrame) {
      if (this.#pending.length + body.length > this.maxFrameBytes) {
        this.problems.push(`a metadata frame is longer than ${this.maxFrameBytes} bytes`);
        this.#discardingFrame = true;
        this.#pending = Buffer.alloc(0);
      } else this.#pending = Buffer.concat([this.#pending, body]);
    }
    if (newline < 0) return Buffer.alloc(0);
    if (!this.#discardingFrame) {
      const frame = this.#pending.toString("utf8");
      if (frame === FUSION_CHILD_WORKING_FRAME) this.working = true;
      else this.frames.push(frame);
    }
    this.#pending = Buffer.alloc(0);
    this.#inFrame = false;
    return data.subarray(newline + 1);
  }

  #keep(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.#otherBytes += bytes.length;
    const room = this.keepBytes - this.#keptBytes;
    if (room <= 0) return;
    const part = bytes.length <= room ? Buffer.from(bytes) : Buffer.from(bytes.subarray(0, room));
    this.#kept.push(part);
    this.#keptBytes += part.length;
  }
}
