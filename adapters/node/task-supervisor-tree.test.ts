import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseProcStat } from "./process-group.ts";
import { parseStat } from "./task-supervisor-tree.mjs";

const parse = (line: string) => {
  const bytes = Buffer.from(`${line}PADDING) x`, "latin1");
  return parseStat(bytes, Buffer.byteLength(line, "latin1"));
};

describe("the supervisor's /proc/<pid>/stat parser", () => {
  it("reads state, group and start time after the last ')', whatever the command name holds", () => {
    const tail = "S 1 4242 4242 0 -1 4194560 10 0 0 0 1 2 0 0 20 -5 1 0 987654 1000 10 18446744073709551615\n";
    expect(parse(`77 (sh) ${tail}`)).toEqual({ state: "S", pgrp: 4242, startTicks: 987654 });
    expect(parse(`77 (a) b (c) ) ${tail}`)).toEqual({ state: "S", pgrp: 4242, startTicks: 987654 });
    expect(parse(`77 (sh) Z 1 99 99 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0`)).toEqual({
      state: "Z",
      pgrp: 99,
      startTicks: 5,
    });
  });

  it("refuses a line without the fields it needs", () => {
    expect(parse("77 sh S 1 2 3")).toBeUndefined();
    expect(parse("77 (sh) S 1 -2 3 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0")).toBeUndefined();
    expect(parse("77 (sh) S 1 2 3 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0")).toBeUndefined();
    expect(parse("")).toBeUndefined();
  });

  it("agrees with the host's parser on every process of this machine", () => {
    let compared = 0;
    for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(`/proc/${entry}/stat`);
      } catch {
        continue; // ended meanwhile
      }
      const parsed = parseStat(bytes, bytes.length);
      expect(parsed).toEqual(parseProcStat(bytes.toString("latin1")));
      if (parsed !== undefined) compared++;
    }
    expect(compared).toBeGreaterThan(5);
  });
});
