import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { err, ok, type Result, type TypedError } from "../../domain/shared/model/result.ts";

/** The Pi CLI a child is started with: `process.execPath <cliPath> …`, never a shell or a PATH lookup. */
export interface PiCliLocation {
  readonly cliPath: string;
  /** From the CLI's package.json; undefined when an override points outside a Pi package. */
  readonly version: string | undefined;
  readonly source: "env" | "host" | "dependency";
}

/** No Pi CLI, or one this Node cannot run (Pi 1.x needs Node >= 22.19): a child started with it would crash. */
export type PiCliNotFound = TypedError<"pi_cli_not_found" | "pi_cli_node_unsupported">;

/** Tests (and unusual installs) point children at another CLI script with this variable. */
export const PI_CLI_OVERRIDE_ENV = "PI_BG_PI_CLI";

const PI_PACKAGE_NAMES = ["@mariozechner/pi-coding-agent", "@earendil-works/pi-coding-agent"];

export interface LocateInput {
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The running program's script: inside the Pi host this is Pi's own cli.js. */
  readonly argv1?: string | undefined;
  /** Where to start looking for an installed Pi package (default: this file's directory). */
  readonly searchFrom?: string;
  /** The Node that would start the children (default: this one, `process.execPath`). */
  readonly nodeVersion?: string;
}

/**
 * Finds the Pi CLI, in this order: the `PI_BG_PI_CLI` override; the CLI of the Pi process we run in (so
 * children run the very Pi version the parent runs); the nearest installed Pi package above this file.
 */
export function locatePiCli(input: LocateInput = {}): Result<PiCliLocation, PiCliNotFound> {
  const found = findPiCli(input);
  return found.ok ? runnableHere(found.value, input.nodeVersion ?? process.versions.node) : found;
}

function findPiCli(input: LocateInput): Result<PiCliLocation, PiCliNotFound> {
  const env = input.env ?? process.env;
  const override = env[PI_CLI_OVERRIDE_ENV];
  if (override !== undefined && override !== "") {
    const path = resolve(override);
    if (!existsSync(path))
      return err({ code: "pi_cli_not_found", message: `${PI_CLI_OVERRIDE_ENV}=${override} does not exist` });
    return ok({ cliPath: path, version: enclosingPiPackage(path)?.version, source: "env" });
  }
  const host = hostCli(input.argv1 ?? process.argv[1]);
  if (host !== undefined) return ok(host);
  const dependency = dependencyCli(input.searchFrom ?? dirname(fileURLToPath(import.meta.url)));
  if (dependency !== undefined) return ok(dependency);
  return err({
    code: "pi_cli_not_found",
    message: `cannot find the Pi CLI: this process is not Pi and no ${PI_PACKAGE_NAMES.join(" or ")} is installed above the package; set ${PI_CLI_OVERRIDE_ENV} to Pi's cli.js`,
  });
}

interface PiPackage {
  readonly dir: string;
  readonly version: string | undefined;
  readonly bin: string | undefined;
  /** `engines.node` of its package.json, e.g. ">=22.19.0". */
  readonly engines: string | undefined;
}

/** Children start as `process.execPath <cli>`: refuse a Pi whose `engines.node` minimum this Node is below. */
function runnableHere(location: PiCliLocation, nodeVersion: string): Result<PiCliLocation, PiCliNotFound> {
  const pkg = enclosingPiPackage(location.cliPath);
  const needed = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?/.exec(pkg?.engines ?? "");
  if (pkg === undefined || needed === null) return ok(location);
  const have = nodeVersion.replace(/^v/, "").split(".").map(Number);
  const want = [Number(needed[1]), Number(needed[2]), Number(needed[3] ?? 0)];
  if (!versionBelow(have, want)) return ok(location);
  return err({
    code: "pi_cli_node_unsupported",
    message: `the Pi CLI ${location.cliPath} (Pi ${pkg.version ?? "of unknown version"}) needs Node ${pkg.engines}, and its children would start on this Node ${nodeVersion}; run Pi on a Node that can run it, or set ${PI_CLI_OVERRIDE_ENV} to a Pi this Node runs`,
  });
}

function hostCli(argv1: string | undefined): PiCliLocation | undefined {
  if (argv1 === undefined) return undefined;
  let script: string;
  try {
    script = realpathSync(argv1);
  } catch {
    return undefined;
  }
  const pkg = enclosingPiPackage(script);
  if (pkg?.bin === undefined || resolve(pkg.dir, pkg.bin) !== script) return undefined;
  return { cliPath: script, version: pkg.version, source: "host" };
}

function dependencyCli(from: string): PiCliLocation | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    for (const name of PI_PACKAGE_NAMES) {
      const pkg = readPiPackage(join(dir, "node_modules", name));
      if (pkg?.bin !== undefined)
        return { cliPath: resolve(pkg.dir, pkg.bin), version: pkg.version, source: "dependency" };
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** The nearest package.json above `file` that belongs to a Pi package. */
function enclosingPiPackage(file: string): PiPackage | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return readPiPackage(dir);
    if (dirname(dir) === dir) return undefined;
  }
}

function versionBelow(have: readonly number[], want: readonly number[]): boolean {
  for (const [i, w] of want.entries()) {
    const h = have[i] ?? 0;
    if (h !== w) return h < w;
  }
  return false;
}

function readPiPackage(dir: string): PiPackage | undefined {
  let manifest: { name?: unknown; version?: unknown; bin?: unknown; engines?: unknown };
  try {
    manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as typeof manifest;
  } catch {
    return undefined;
  }
  if (typeof manifest.name !== "string" || !PI_PACKAGE_NAMES.includes(manifest.name)) return undefined;
  const bin =
    typeof manifest.bin === "string"
      ? manifest.bin
      : isRecord(manifest.bin) && typeof manifest.bin.pi === "string"
        ? manifest.bin.pi
        : undefined;
  const engines =
    isRecord(manifest.engines) && typeof manifest.engines.node === "string" ? manifest.engines.node : undefined;
  return { dir, version: typeof manifest.version === "string" ? manifest.version : undefined, bin, engines };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
