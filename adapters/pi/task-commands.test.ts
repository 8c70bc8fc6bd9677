import { afterEach, describe, expect, it } from "vitest";
import { commandWorld } from "./task-commands.test-support.ts";
import { FINISHED, RUNNING } from "./task-fuzz.test-support.ts";

/** What the user reads after typing a task command in Pi: the level and the words of each notice. */
describe("task commands as the user reads them", () => {
  let shutdown: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await shutdown?.();
    shutdown = undefined;
  });

  async function open() {
    const w = await commandWorld();
    shutdown = () => w.runtime.shutdown();
    return w;
  }

  it("/kill that stopped the task is an info notice, not a warning", async () => {
    const w = await open();
    await w.run("kill", w.ids[RUNNING] ?? "");
    expect(w.notes).toEqual([{ message: expect.stringMatching(/^Killed /), level: "info" }]);
  });

  it("/kill of a task that already ended is an error", async () => {
    const w = await open();
    await w.run("kill", w.ids[FINISHED] ?? "");
    expect(w.notes.map((n) => n.level)).toEqual(["error"]);
  });

  it.each([
    ["kill", "", "/kill <id>"],
    ["kill", "nosuch", "/jobs"],
    ["logs", "", "/logs <id>"],
    ["logs", "nosuch 100", "/jobs"],
  ])("/%s '%s' answers in the words of commands (%s), naming no tool", async (command, args, named) => {
    const w = await open();
    await w.run(command, args);
    const [note] = w.notes;
    expect(note?.level).toBe("error");
    expect(note?.message).toContain(named);
    expect(note?.message).not.toMatch(/\bbg_\w+/);
  });
});
