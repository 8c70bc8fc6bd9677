import { execFileSync } from "node:child_process";

/** A detached tmux session on a private server socket, for driving an interactive program by its screen. */
export interface TmuxSession {
  /** The visible screen as text (one line per row, trailing spaces trimmed by tmux). */
  capture(): string;
  /** Types text literally (no key-name interpretation). */
  type(text: string): void;
  /** Sends tmux key names: "Enter", "Escape", "Up", "S-Down", "C-d", or single characters. */
  keys(...names: string[]): void;
  /** Polls the screen until `pattern` matches; fails with the last screen after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Kills the private tmux server and everything running in it. */
  kill(): void;
}

export interface TmuxOptions {
  /** A path only this session uses; its server is started with no config file. */
  readonly socketPath: string;
  readonly name: string;
  readonly width: number;
  readonly height: number;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly argv: readonly string[];
}

const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

export function startTmux(options: TmuxOptions): TmuxSession {
  const tmux = (...args: string[]): string =>
    execFileSync("tmux", ["-f", "/dev/null", "-S", options.socketPath, ...args], {
      encoding: "utf8",
      env: { ...process.env, LANG: "C.UTF-8" },
    });
  const env = Object.entries(options.env).flatMap(([key, value]) => ["-e", `${key}=${value}`]);
  // remain-on-exit keeps a crashed program's last screen readable for the failure message.
  tmux(
    "new-session",
    "-d",
    "-s",
    options.name,
    "-x",
    String(options.width),
    "-y",
    String(options.height),
    "-c",
    options.cwd,
    ...env,
    options.argv.map(quote).join(" "),
    ";",
    "set-option",
    "-t",
    options.name,
    "remain-on-exit",
    "on",
  );
  const target = `${options.name}:0.0`;
  const capture = (): string => tmux("capture-pane", "-p", "-t", target);
  return {
    capture,
    type: (text) => void tmux("send-keys", "-t", target, "-l", text),
    keys: (...names) => void tmux("send-keys", "-t", target, ...names),
    waitFor: async (pattern, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      let screen = "";
      for (;;) {
        screen = capture();
        if (pattern.test(screen)) return screen;
        if (Date.now() > deadline)
          throw new Error(`screen never matched ${String(pattern)} within ${timeoutMs} ms; last screen:\n${screen}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    kill: () => {
      try {
        tmux("kill-server");
      } catch (error) {
        // Already gone (the program exited and took the server with it) is fine; anything else is not.
        if (
          !String((error as { stderr?: unknown }).stderr ?? error).match(
            /no server running|error connecting|No such file/,
          )
        )
          throw error;
      }
    },
  };
}
