import { StringDecoder } from "node:string_decoder";

/** A JSON record Pi printed (json or rpc mode). */
export interface PiRecord {
  readonly type: string;
  readonly [key: string]: unknown;
}

/**
 * Splits a byte stream into records on LF only, as Pi's RPC framing requires (U+2028/U+2029 stay inside
 * strings; a trailing CR is dropped). Lines that are not JSON objects with a `type` go to `onNoise`.
 */
export class JsonlSplitter {
  private readonly decoder = new StringDecoder("utf8");
  private buffer = "";

  private readonly onRecord: (record: PiRecord) => void;
  private readonly onNoise: (line: string) => void;

  constructor(onRecord: (record: PiRecord) => void, onNoise: (line: string) => void) {
    this.onRecord = onRecord;
    this.onNoise = onNoise;
  }

  push(chunk: Buffer | string): void {
    this.buffer += typeof chunk === "string" ? chunk : this.decoder.write(chunk);
    let newline = this.buffer.indexOf("\n");
    while (newline !== -1) {
      this.emit(this.buffer.slice(0, newline));
      this.buffer = this.buffer.slice(newline + 1);
      newline = this.buffer.indexOf("\n");
    }
  }

  /** Flushes a last unterminated line. */
  end(): void {
    this.buffer += this.decoder.end();
    if (this.buffer !== "") this.emit(this.buffer);
    this.buffer = "";
  }

  private emit(rawLine: string): void {
    const line = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
    if (line.trim() === "") return;
    const record = parseRecord(line);
    if (record === undefined) this.onNoise(line);
    else this.onRecord(record);
  }
}

function parseRecord(line: string): PiRecord | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (
      typeof value === "object" &&
      value !== null &&
      !Array.isArray(value) &&
      typeof (value as { type?: unknown }).type === "string"
    ) {
      return value as PiRecord;
    }
    return undefined;
  } catch {
    return undefined;
  }
}

/** Parses a whole captured stdout. */
export function parseJsonl(text: string): { records: PiRecord[]; noise: string[] } {
  const records: PiRecord[] = [];
  const noise: string[] = [];
  const splitter = new JsonlSplitter(
    (r) => records.push(r),
    (l) => noise.push(l),
  );
  splitter.push(text);
  splitter.end();
  return { records, noise };
}
