import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseProcStat } from "./process-group.ts";
import { environCarriesTag, newProcessTag, PROCESS_TAG_VARIABLE, taggedEnv } from "./process-tag.ts";

const environ = (env: Record<string, string>) =>
  Buffer.from(
    `${Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join("\0")}\0`,
  );

describe("process tags", () => {
  it("are 128-bit hex and differ between launches", () => {
    const tags = new Set(Array.from({ length: 100 }, newProcessTag));
    expect(tags.size).toBe(100);
    for (const tag of tags) expect(tag).toMatch(/^[0-9a-f]{32}$/);
  });

  it("are found in an environment block exactly when the variable lists them", () => {
    const key = fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !k.includes("=") && !k.includes("\0"));
    const value = fc.string({ maxLength: 40 }).filter((v) => !v.includes("\0"));
    fc.assert(
      fc.property(
        fc.dictionary(key, value, { maxKeys: 6 }),
        fc.boolean(),
        fc.option(fc.constantFrom("aaaa", "bbbb:cccc")),
        (env, tagged, inherited) => {
          const tag = newProcessTag();
          const base = inherited === null ? env : { ...env, [PROCESS_TAG_VARIABLE]: inherited };
          const block = environ(tagged ? taggedEnv(base, tag) : base);
          expect(environCarriesTag(block, tag)).toBe(tagged);
          if (tagged && inherited !== null)
            for (const outer of inherited.split(":")) expect(environCarriesTag(block, outer)).toBe(true);
        },
      ),
    );
  });

  it("do not match inside another variable or as a prefix", () => {
    const tag = "0123456789abcdef0123456789abcdef";
    expect(environCarriesTag(environ({ OTHER: tag }), tag)).toBe(false);
    expect(environCarriesTag(environ({ [`X${PROCESS_TAG_VARIABLE}`]: tag }), tag)).toBe(false);
    expect(environCarriesTag(environ({ [PROCESS_TAG_VARIABLE]: `${tag}ff` }), tag)).toBe(false);
    expect(environCarriesTag(Buffer.alloc(0), tag)).toBe(false);
    expect(environCarriesTag(Buffer.from(`${PROCESS_TAG_VARIABLE}=${tag}`), tag)).toBe(true); // no trailing NUL
  });
});

describe("parseProcStat", () => {
  it("reads state, group and start time even when the command name has spaces and parentheses", () => {
    const line = "4242 (we ird) (name)) S 1 4240 4240 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 50";
    expect(parseProcStat(line)).toEqual({ state: "S", pgrp: 4240, startTicks: 987654 });
    expect(parseProcStat("")).toBeUndefined();
    expect(parseProcStat("12 (x) Z 1")).toBeUndefined();
  });
});
