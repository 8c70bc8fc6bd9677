import { createHash } from "node:crypto";

/** SHA-256 over bytes that arrive in pieces (a file read range by range). */
export interface Sha256Stream {
  update(bytes: Uint8Array): void;
  hex(): string;
}

export function sha256Stream(): Sha256Stream {
  const hash = createHash("sha256");
  return {
    update: (bytes) => void hash.update(bytes),
    hex: () => hash.digest("hex"),
  };
}
