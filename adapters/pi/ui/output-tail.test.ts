import { describe, expect, it } from "vitest";
import { tailLines } from "./output-tail.ts";

const plan = (windowStart: number, produced: number) => ({ windowStart, produced }) as never;

describe("tailLines", () => {
  it("splits the whole output into display-safe lines", () => {
    expect(tailLines({ text: "one\r\ntwo\x1b[31m red\x1b[0m\tx\n", plan: plan(0, 20) }, "o.out")).toEqual([
      "one",
      "two red    x",
    ]);
    expect(tailLines({ text: "", plan: plan(0, 0) }, "o.out")).toEqual([]);
  });

  it("a read that starts mid-file drops the partial first line and says how much came before", () => {
    expect(tailLines({ text: "tial line\nfull 1\nfull 2", plan: plan(100, 122) }, "o.out")).toEqual([
      "[… earlier output not shown here (100 of 122 bytes); full output: o.out]",
      "full 1",
      "full 2",
    ]);
  });
});
