import * as nodeCrypto from "node:crypto";

/** The exact UTF-8 byte count and SHA-256 (hex) of a text. */
export interface Utf8Digest {
  readonly bytes: number;
  readonly sha256: string;
}

const encoder = new TextEncoder();

/** The most UTF-8 bytes the text can take: a UTF-16 code unit takes at most 3 (a surrogate pair 4 for two). */
export function maxUtf8Bytes(text: string): number {
  return text.length * 3;
}

/** SHA-256 of bytes through a hash object: `sha256Once` where `crypto.hash` (Node ≥ 20.12) is missing. */
export function sha256ByHashObject(data: Uint8Array): Buffer {
  return nodeCrypto.createHash("sha256").update(data).digest();
}

/** SHA-256 of bytes in one call. */
export const sha256Once: (data: Uint8Array) => Buffer =
  typeof nodeCrypto.hash === "function" ? (data) => nodeCrypto.hash("sha256", data, "buffer") : sha256ByHashObject;

/**
 * Hashes a UTF-8 text written in pieces. Each piece is encoded into one buffer, which is hashed whenever it fills:
 * a hash given a string instead allocates a copy of its bytes every time, and counting them is a second pass.
 * Pieces must be well formed: the encoder writes a lone surrogate, or half of a pair split across two writes, as
 * U+FFFD.
 */
export class Utf8Sha256 {
  private readonly hash = nodeCrypto.createHash("sha256");
  private filled = 0;
  private bytes = 0;

  /** `buffer` must hold at least 4 bytes (any code point); it is the instance's until `digest`. */
  constructor(private readonly buffer: Uint8Array) {}

  write(text: string): void {
    let rest = text;
    for (;;) {
      // The encoder stops before a code point that does not fit, never inside one.
      const { read, written } = encoder.encodeInto(rest, this.buffer.subarray(this.filled));
      this.filled += written;
      this.bytes += written;
      if (read === rest.length) return;
      if (this.filled === 0)
        throw new RangeError(`a ${this.buffer.length}-byte buffer cannot hold the next code point`);
      this.flush();
      rest = rest.slice(read);
    }
  }

  digest(): Utf8Digest {
    this.flush();
    return { bytes: this.bytes, sha256: this.hash.digest("hex") };
  }

  private flush(): void {
    this.hash.update(this.buffer.subarray(0, this.filled));
    this.filled = 0;
  }
}

// Shared by `digestUtf8`, which finishes with it before returning.
const scratch = new Uint8Array(1 << 20);

/** The UTF-8 byte count and SHA-256 of a well-formed text, without a copy of its bytes. */
export function digestUtf8(text: string): Utf8Digest {
  if (maxUtf8Bytes(text) <= scratch.length) {
    const { written } = encoder.encodeInto(text, scratch);
    return { bytes: written, sha256: sha256Once(scratch.subarray(0, written)).toString("hex") };
  }
  const sink = new Utf8Sha256(scratch);
  sink.write(text);
  return sink.digest();
}
