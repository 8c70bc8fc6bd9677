import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TELEMETRY_FRAME_MARKER } from "../../domain/telemetry/model/telemetry-frame.ts";
import { runProcess } from "./pi-cli-harness.test-support.ts";
import {
  piTelemetryWrapperPath,
  planPiInterception,
  shellQuote,
  type PiInterceptionOptions,
} from "./pi-command-interception.ts";

const OPTIONS: PiInterceptionOptions = {
  env: {},
  wrapperPath: "/pkg/adapters/node/pi-telemetry-wrapper.mjs",
  nodePath: "/usr/bin/node",
  piCliPath: "/pkg/pi/cli.js",
};

const reasonOf = (command: string, options: PiInterceptionOptions = OPTIONS) => {
  const plan = planPiInterception(command, options);
  return plan.wrapped ? "wrapped" : plan.reason;
};

describe("planPiInterception decision", () => {
  it.each([
    'pi -p "summarise the repo"',
    "pi --print hello",
    "pi --mode json hello",
    "cd sub && pi -p x > /dev/null",
    "FOO=1 BAR=2 pi -p x",
    "if pi -p x; then echo ok; fi",
    "echo hi | pi -p",
    "result=$(pi -p x)",
    "npm test; pi -p 'review the failures'",
    "pi '-p' x",
  ])("wraps a bare print/json pi: %s", (command) => {
    expect(reasonOf(command)).toBe("wrapped");
  });

  it.each([
    ["./pi -p x", "path-qualified-pi-not-wrapped"],
    ["/usr/local/bin/pi --print x", "path-qualified-pi-not-wrapped"],
    ["pi --mode rpc", "pi-not-in-print-or-json-mode"],
    ["pi list", "pi-not-in-print-or-json-mode"],
    ["timeout 600 pi -p x", "pi-behind-launcher-not-interceptable"],
    ["nohup pi -p x &", "pi-behind-launcher-not-interceptable"],
    ["exec pi -p x", "pi-behind-launcher-not-interceptable"],
    ["npm run build", "no-pi-command"],
    ["pipx run x -p", "no-pi-command"],
    ["api -p x", "no-pi-command"],
    ["echo pi -p", "no-pi-command"],
  ])("leaves %s alone: %s", (command, reason) => {
    expect(reasonOf(command)).toBe(reason);
  });

  it("PI_BG_DISABLE_PI_TELEMETRY=1 disables wrapping, other values do not", () => {
    expect(reasonOf("pi -p x", { ...OPTIONS, env: { PI_BG_DISABLE_PI_TELEMETRY: "1" } })).toBe(
      "telemetry-disabled-by-env",
    );
    expect(reasonOf("pi -p x", { ...OPTIONS, env: { PI_BG_DISABLE_PI_TELEMETRY: "0" } })).toBe("wrapped");
  });

  it("refuses Windows cmd with the reference reason", () => {
    expect(reasonOf("pi -p x", { ...OPTIONS, shellDialect: "win32-cmd" })).toBe(
      "win32-cmd-cannot-safely-intercept-pi-argv",
    );
  });

  it("a wrapped command is the prefix followed by the untouched original; unwrapped commands are untouched", () => {
    const plan = planPiInterception("pi -p x", OPTIONS);
    expect(plan.wrapped && plan.command === `${plan.prefix}pi -p x`).toBe(true);
    expect(planPiInterception("./pi -p x", OPTIONS).command).toBe("./pi -p x");
  });

  it("shell-quotes any word", () => {
    expect(shellQuote("it's a test")).toBe(`'it'\\''s a test'`);
  });
});

describe("the shell prefix under real shells", () => {
  let dir: string;
  let options: PiInterceptionOptions;
  const shells = ["/bin/sh", "/usr/bin/bash", "/usr/bin/dash"].filter((s) => existsSync(s));

  beforeAll(async () => {
    // Paths with spaces and quotes prove the quoting; the fake pi prints its argv.
    dir = await mkdtemp(join(tmpdir(), "pi intercept '"));
    await mkdir(join(dir, "pkg dir"), { recursive: true });
    const wrapperPath = join(dir, "pkg dir", "wrap'per.mjs");
    await copyFile(piTelemetryWrapperPath(), wrapperPath);
    const fakePi = join(dir, "fake pi.mjs");
    await writeFile(
      fakePi,
      'process.stdout.write(JSON.stringify({ type: "fake_argv", argv: process.argv.slice(2) }) + "\\n");\n',
    );
    options = { env: {}, wrapperPath, nodePath: process.execPath, piCliPath: fakePi };
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const run = (shell: string, command: string) => {
    const plan = planPiInterception(command, options);
    if (!plan.wrapped) throw new Error(`not wrapped: ${plan.reason}`);
    return runProcess(shell, ["-c", plan.command], { cwd: dir, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
  };

  it.each(shells)("%s: bare pi reaches the wrapper with the user's words intact", async (shell) => {
    const outcome = await run(shell, `pi -p "two words" 'it'"'"'s' --flag`);
    expect(outcome.code, outcome.stderr).toBe(0);
    const payload = outcome.stdout.toString("utf8").replace(TELEMETRY_FRAME_MARKER, "");
    expect(JSON.parse(payload)).toEqual({
      type: "fake_argv",
      argv: ["--mode", "json", "-p", "two words", "it's", "--flag"],
    });
  });

  it.each(shells)(
    "%s: stdout redirected inside the command bypasses the wrapper; fd 9 is not left open",
    async (shell) => {
      const fdCheck = existsSync("/proc/self/fd")
        ? `; if [ -e /proc/$$/fd/9 ]; then echo fd9-open; else echo fd9-closed; fi`
        : "";
      const outcome = await run(shell, `pi -p x > out.json; cat out.json${fdCheck}`);
      expect(outcome.code, outcome.stderr).toBe(0);
      const text = outcome.stdout.toString("utf8");
      expect(text.startsWith(`${JSON.stringify({ type: "fake_argv", argv: ["-p", "x"] })}\n`)).toBe(true);
      if (fdCheck !== "") expect(text.endsWith("fd9-closed\n")).toBe(true);
    },
  );
});
