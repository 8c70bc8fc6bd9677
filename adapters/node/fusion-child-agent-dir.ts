import {
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import { errnoCode } from "./errno.ts";
import { childSettingsJson, type ChildRetryPolicy } from "./fusion-child-settings.ts";

const SETTINGS = "settings.json";
const SETTINGS_TEMP = "settings.json.tmp";

/**
 * The agent dir (`PI_CODING_AGENT_DIR`) of one runner's Fusion children: the user's settings with the
 * children's retry policy (fusion-child-settings.ts), and every other entry of the user's agent dir as a
 * symlink to it, so models.json, auth.json and resources resolve as before. auth.json is linked, not
 * copied: an OAuth refresh writes through the link into the user's file, and its lock is shared (Pi 0.73
 * locks the refresh on the resolved path, Pi 1.x every auth write), so a rotated refresh token is never
 * lost. Created on first need (mode 0700, under the temp dir), brought up to date before each child, and
 * removed by the runner's shutdown.
 */
export class ChildAgentDir {
  #dir: string | undefined;

  constructor(
    private readonly userDir: string,
    private readonly policy: ChildRetryPolicy,
    private readonly parent: string = tmpdir(),
  ) {}

  get path(): string {
    this.#dir ??= mkdtempSync(join(this.parent, "pi-bg-child-agent-"));
    return this.#dir;
  }

  /** Links what the user's agent dir holds now, drops links to what it no longer holds, rewrites the settings. */
  sync(): Result<string, string> {
    try {
      const dir = this.path;
      const wanted = new Set(userEntries(this.userDir));
      for (const name of readdirSync(dir)) {
        if (!wanted.has(name) && lstatSync(join(dir, name)).isSymbolicLink()) unlinkSync(join(dir, name));
      }
      for (const name of wanted) {
        if (!exists(join(dir, name))) symlinkSync(join(this.userDir, name), join(dir, name));
      }
      writeFileSync(join(dir, SETTINGS_TEMP), childSettingsJson(readSettings(this.userDir), this.policy), {
        mode: 0o600,
      });
      renameSync(join(dir, SETTINGS_TEMP), join(dir, SETTINGS));
      return ok(dir);
    } catch (error) {
      return err(error instanceof Error ? error.message : String(error));
    }
  }

  remove(): void {
    if (this.#dir !== undefined) rmSync(this.#dir, { recursive: true, force: true });
    this.#dir = undefined;
  }
}

function userEntries(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name !== SETTINGS && name !== SETTINGS_TEMP);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return [];
    throw error;
  }
}

function readSettings(dir: string): string | undefined {
  try {
    return readFileSync(join(dir, SETTINGS), "utf8");
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return undefined;
    throw error;
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return false;
    throw error;
  }
}
