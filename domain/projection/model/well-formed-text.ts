interface WellFormedString {
  isWellFormed?: () => boolean;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the string has a UTF-8 form (no lone surrogates). */
export function isWellFormedText(text: string): boolean {
  // String.prototype.isWellFormed (Node 20+) is an order of magnitude faster than the regex.
  const native = (text as unknown as WellFormedString).isWellFormed;
  return native === undefined ? !LONE_SURROGATE.test(text) : native.call(text);
}
