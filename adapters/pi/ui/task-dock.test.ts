import { visibleWidth } from "@mariozechner/pi-tui";
import { describe, expect, it } from "vitest";
import { NOT_REPORTED } from "../../../domain/tasks/model/telemetry-text.ts";
import { DETAIL_HELP, LIST_HELP } from "./task-dock.ts";
import { ANSI_THEME, Harness, KEY, strip, task } from "./task-dock.test-support.ts";

describe("task dock rendering", () => {
  const hostile = [
    task("b00000001", "running", {
      name: "ビルドとテスト 🚀 全部 e\u0301 ok",
      command: `npm test -- ${"--very-long-flag ".repeat(800)}`,
    }),
    task("b00000002", "failed", {
      name: "bad \x1b[31mred\x1b[0m\nname\ttab",
      error: `boom ${"x".repeat(500)}`,
      command: "exit 3",
    }),
    task("b00000003", "completed", { name: "x".repeat(80) }),
    ...Array.from({ length: 20 }, (_, i) => task(`b1${String(i).padStart(7, "0")}`, "running")),
  ];

  for (const width of [40, 80, 120]) {
    it(`every line is exactly ${width} columns in the list and detail views, with unicode names and huge commands`, async () => {
      const h = new Harness(hostile, { theme: ANSI_THEME });
      h.tails.set("b00000001", [
        "plain",
        "\x1b[2Jcolour \x1b[32mgreen\x1b[0m",
        "wide 漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字",
        "z".repeat(5000),
      ]);
      const views: string[][] = [h.dock.render(width)];
      await h.press(KEY.enter);
      views.push(h.dock.render(width));
      await h.press(KEY.up, KEY.escape, KEY.down, KEY.enter);
      views.push(h.dock.render(width));
      await h.press(KEY.left, "a");
      views.push(h.dock.render(width));
      for (const lines of views) {
        expect(lines.length).toBeLessThanOrEqual(Math.floor(h.rows * 0.6));
        for (const line of lines) {
          expect(visibleWidth(line)).toBe(width);
          expect(strip(line)).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
        }
      }
    });
  }

  it("stays inside 60% of a short terminal", () => {
    const h = new Harness([task("b1", "running")], {
      initial: "b1",
      tails: { b1: Array.from({ length: 100 }, (_, i) => `line ${i}`) },
    });
    for (const rows of [6, 12, 20, 30]) {
      h.rows = rows;
      const lines = h.dock.render(80);
      expect(lines.length).toBeLessThanOrEqual(Math.max(3, Math.floor(rows * 0.6)));
      expect(lines.at(-1)).toMatch(/^╰─+╯$/);
    }
  });

  it("the help line is shown in each view", async () => {
    const h = new Harness([task("b1", "running")]);
    expect(h.screen(400)).toContain(LIST_HELP);
    await h.press(KEY.enter);
    expect(h.screen(400)).toContain(DETAIL_HELP);
  });

  it("a plain shell task's detail shows identity, status, exit, output, command and error, and no telemetry rows", async () => {
    const h = new Harness([task("b2", "failed", { error: "Exited with code 3", command: "make all" })], {
      initial: "b2",
      tails: { b2: ["compiling", "error: nope"] },
    });
    await h.press();
    const screen = h.screen(120);
    expect(screen).toContain("task b2 (b2)");
    expect(screen).toMatch(/Status\s+failed · shell · 4s · exit 3/);
    expect(screen).toContain(".pi/tasks/s-1/b2.output (10 bytes)");
    expect(screen).not.toMatch(/^│?\s*(Model|Context|Tokens|Tools)\s/m);
    expect(screen).not.toContain(NOT_REPORTED);
    expect(screen).toMatch(/Command\s+make all/);
    expect(screen).toMatch(/Error\s+Exited with code 3/);
    expect(screen).toContain("error: nope");
  });

  it("an agent task that sent no telemetry reads 'not reported' in each telemetry row", async () => {
    const h = new Harness([task("b3", "running", { isAgent: true, command: "pi -p hi" })], {
      initial: "b3",
      tails: { b3: [] },
    });
    await h.press();
    const screen = h.screen(120);
    for (const row of ["Model", "Context", "Tokens", "Tools"])
      expect(screen).toMatch(new RegExp(`${row}\\s+${NOT_REPORTED}`));
  });
});

describe("tasks that disappear", () => {
  it("a detail whose task was pruned falls back to the list and says why", async () => {
    const h = new Harness([task("b1", "completed"), task("b2", "running")], { initial: "b1", tails: { b1: [] } });
    await h.press();
    h.tasks = h.tasks.filter((t) => t.id !== "b1");
    h.changed();
    expect(h.screen(400)).toContain(LIST_HELP);
    expect(h.screen(400)).toContain("Task b1 is no longer retained in this session.");
  });
});

describe("task dock: a task whose shell exited while its processes run", () => {
  const afterShell = task("b00000009", "running", {
    shellExit: { code: 0, signal: null, at: Date.now() - 2_000 },
    remaining: [{ pid: 4242, command: "sleep 37" }],
  });

  it("the list says so distinctly, and the detail view lists what still runs", async () => {
    const h = new Harness([afterShell, task("b00000010", "running")]);
    const list = h.dock.render(120).map(strip);
    expect(list.find((l) => l.includes("b00000009"))).toContain("(shell exited, 1 process still running)");
    expect(list.find((l) => l.includes("b00000010"))).not.toContain("shell exited");
    await h.press(KEY.enter);
    const detail = h.dock.render(200).map(strip).join("\n");
    expect(detail).toContain("Processes");
    expect(detail).toContain("shell exited (exit 0)");
    expect(detail).toContain("pid 4242 sleep 37");
  });
});
