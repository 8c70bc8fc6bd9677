import fc from "fast-check";

/**
 * Values a model, a user or a damaged file may hand the package: wrong types, NaN and infinities,
 * huge and strange strings (lone surrogates, control and bidi characters, NUL), deep nesting,
 * prototype-ish keys. For property tests of every surface that takes input.
 */
export const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

const oddCharacter = fc.constantFrom(
  "\0",
  "\n",
  "\r",
  "\t",
  "\u202e",
  "\ufeff",
  "\u2028",
  "\u00a0",
  " ",
  "-",
  "--",
  "=",
  "'",
  '"',
  "\\",
  "$(",
  "`",
  ";",
  "é",
  "\u{1F600}",
);

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({
    unit: fc.oneof(fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), loneSurrogate, oddCharacter),
    maxLength: 40,
  }),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.string({ maxLength: 30 }),
  fc.constantFrom(
    "",
    " ",
    "\t\n",
    "x".repeat(100_001),
    "é".repeat(60_000),
    "\u{1D7D8}".repeat(30_000),
    "\ud800".repeat(1_000),
    "a".repeat(1_000_000),
    "__proto__",
    "constructor",
  ),
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    -0,
    0,
    1,
    -1,
    0.5,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    Number.MAX_SAFE_INTEGER + 2,
    1e308,
    2 ** 53,
  ),
);

/** Nested arrays and objects up to 20,000 levels deep. */
export const deeplyNested: fc.Arbitrary<unknown> = fc.integer({ min: 1, max: 20_000 }).map((depth) => {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { k: value };
  return value;
});

const prototypeKeys = fc.constantFrom(
  JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
  JSON.parse('{"constructor": {"prototype": {"polluted": true}}}') as unknown,
  Object.create(null) as unknown,
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.anything({
      maxDepth: 4,
      withBoxedValues: true,
      withNullPrototype: true,
      withSparseArray: true,
      withTypedArray: true,
      withDate: true,
      withMap: true,
      withSet: true,
    }),
  },
  { weight: 2, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: deeplyNested },
  { weight: 1, arbitrary: prototypeKeys },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, true, false, [], {}) },
);

/**
 * An argument object near a tool's schema: each field is either a plausible value or a hostile one,
 * may be missing, and extra (sometimes hostile) keys may ride along.
 */
export function nearlyValidObject(fields: Readonly<Record<string, fc.Arbitrary<unknown>>>): fc.Arbitrary<unknown> {
  const mixed = Object.fromEntries(
    Object.entries(fields).map(([key, valid]) => [
      key,
      fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: hostileValue }),
    ]),
  );
  return fc
    .tuple(
      fc.record(mixed, { requiredKeys: [] }),
      fc.option(
        fc.dictionary(fc.oneof(hostileString, fc.constantFrom("__proto__", "extra", "taskId ")), hostileValue, {
          maxKeys: 3,
        }),
        { freq: 4 },
      ),
    )
    .map(([known, extra]) => (extra === null ? known : { ...extra, ...known }));
}

/** Arbitrary input for a tool: mostly near its schema, sometimes anything at all. */
export function toolInput(fields: Readonly<Record<string, fc.Arbitrary<unknown>>>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 4, arbitrary: nearlyValidObject(fields) }, { weight: 1, arbitrary: hostileValue });
}
