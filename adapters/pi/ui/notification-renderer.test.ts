import { visibleWidth } from "@mariozechner/pi-tui";
import { describe, expect, it } from "vitest";
import { notificationRenderer, renderNotificationLines } from "./notification-renderer.ts";
import { PLAIN_THEME, type UiColor, type UiTheme } from "./ui-theme.ts";
import { renderNotification } from "../../../domain/tasks/model/notification.ts";

const colours: Array<[UiColor, string]> = [];
const RECORDING: UiTheme = {
  fg: (color, text) => {
    colours.push([color, text]);
    return `\x1b[3${colours.length % 7}m${text}\x1b[39m`;
  },
  bold: (text) => text,
};

const snapshot = {
  id: "b1234abcd",
  name: "unit tests",
  status: "failed",
  exitCode: 3,
  outputPath: ".pi/tasks/s/b1234abcd.output",
  error: "Exited with code 3",
};

const TASK = {
  id: "b1234abcd",
  name: "unit tests",
  outputPath: ".pi/tasks/s/b1234abcd.output",
  output: { producedBytes: 40, elidedBytes: 0 },
  triggerOnCompletion: true,
};

describe("completion notice renderer", () => {
  it("renders one status line, the output path and the error", () => {
    expect(renderNotificationLines(snapshot, "<xml/>", false, PLAIN_THEME)).toEqual([
      "[bg failed] unit tests (b1234abcd) exit 3",
      "  output: .pi/tasks/s/b1234abcd.output",
      "  error: Exited with code 3",
    ]);
    expect(
      renderNotificationLines(
        { ...snapshot, status: "completed", exitCode: 0, error: undefined },
        "",
        false,
        PLAIN_THEME,
      ),
    ).toEqual(["[bg completed] unit tests (b1234abcd) exit 0", "  output: .pi/tasks/s/b1234abcd.output"]);
  });

  it("shows the user the last output lines the model was sent, as the notice carries them", () => {
    const notice = renderNotification(
      { ...TASK, status: "failed", exitCode: 1 } as never,
      "step 1\nstep 2\n<error> & more\nFAILED 2 tests",
    ).content;
    expect(renderNotificationLines(snapshot, notice, false, PLAIN_THEME).slice(1, 4)).toEqual([
      "  │ step 2",
      "  │ <error> & more",
      "  │ FAILED 2 tests",
    ]);
    const silent = renderNotification({ ...TASK, status: "completed", exitCode: 0 } as never, "").content;
    expect(renderNotificationLines(snapshot, silent, false, PLAIN_THEME).some((l) => l.includes("│"))).toBe(false);
  });

  it.each([
    ["completed", "success"],
    ["failed", "error"],
    ["killed", "warning"],
  ])("colours a %s task with the %s colour", (status, colour) => {
    colours.length = 0;
    renderNotificationLines({ ...snapshot, status }, "", false, RECORDING);
    expect(colours.find(([, text]) => text.startsWith("[bg "))?.[0]).toBe(colour);
  });

  it("expanded shows the full notice; odd details never throw", () => {
    expect(renderNotificationLines(snapshot, "a\nb", true, PLAIN_THEME).slice(-2)).toEqual(["  a", "  b"]);
    expect(renderNotificationLines(undefined, "", false, PLAIN_THEME)).toEqual([
      "[bg ended] background task (unknown id)",
    ]);
    expect(renderNotificationLines({ name: "x\x1b[2J\ny", status: 7 }, "", false, PLAIN_THEME)[0]).toBe(
      "[bg ended] x ⏎ y (unknown id)",
    );
  });

  it("the component wraps to the width it is given", () => {
    const component = notificationRenderer()(
      {
        role: "custom",
        customType: "background-task-notification",
        content: "x",
        display: true,
        details: { ...snapshot, name: "名前".repeat(60) },
        timestamp: 0,
      },
      { expanded: false },
      PLAIN_THEME as never,
    );
    for (const width of [40, 80, 120])
      for (const line of component?.render(width) ?? ["missing"]) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
  });
});
