export interface TruncatedText {
  readonly text: string;
  readonly truncated: boolean;
  /** UTF-8 length of `text`. */
  readonly bytes: number;
}

function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

/** Cuts `text` to at most `maxBytes` of UTF-8 without splitting a character (a lone surrogate counts 3). */
export function truncateUtf8(text: string, maxBytes: number): TruncatedText {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = utf8Length(char.codePointAt(0) ?? 0);
    if (bytes + size > maxBytes) return { text: text.slice(0, end), truncated: true, bytes };
    bytes += size;
    end += char.length;
  }
  return { text, truncated: false, bytes };
}
