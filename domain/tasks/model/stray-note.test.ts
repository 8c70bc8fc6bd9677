import { describe, expect, it } from "vitest";
import { strayFields } from "./stray-note.ts";

describe("strayFields", () => {
  it("leaves the error alone when nothing had to be stopped", () => {
    expect(strayFields(undefined, undefined)).toEqual({});
    expect(strayFields("Exited with code 1", [])).toEqual({ error: "Exited with code 1" });
  });

  it("counts the strays and names them, after any error of the command itself", () => {
    expect(strayFields(undefined, [11])).toEqual({
      error: "1 descendant process outlived the command and was stopped (pid 11)",
      strays: 1,
    });
    expect(strayFields("Exited with code 2", [5, 6])).toEqual({
      error: "Exited with code 2; 2 descendant processes outlived the command and were stopped (pids 5, 6)",
      strays: 2,
    });
  });
});
