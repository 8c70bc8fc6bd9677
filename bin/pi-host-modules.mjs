// Where the modules this package imports as `@mariozechner/*` and `typebox` live in one installed Pi, mapped the
// way Pi 1.x's own extension loader maps them (dist/core/extensions/loader.js): so code run outside Pi (the MCP
// server, the Pi 1.x test lane) uses the very Pi packages a given Pi install ships, whichever scope it has.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

export const PI_PACKAGES = ["@mariozechner/pi-coding-agent", "@earendil-works/pi-coding-agent"];

function readManifest(dir) {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
}

/** The folder of package `name` as Node would find it from `fromDir`, or undefined. */
function packageDir(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The ESM entry of `subpath` ("." or "./x") of the package in `dir`, from its `exports` (import/default) or `main`. */
function esmEntry(dir, subpath = ".") {
  const manifest = readManifest(dir);
  const exports = manifest.exports;
  const target =
    typeof exports === "object" && exports !== null && !Array.isArray(exports) && subpath in exports
      ? exports[subpath]
      : subpath === "."
        ? (exports ?? manifest.main ?? "index.js")
        : undefined;
  const file = typeof target === "string" ? target : (target?.import ?? target?.default);
  if (typeof file !== "string") throw new Error(`${dir} exports no ESM entry for '${subpath}'`);
  return join(dir, file);
}

/** `{ piDir, name, version, cliPath }` of the Pi package in `piDir`. */
export function describePi(piDir) {
  const manifest = readManifest(piDir);
  if (!PI_PACKAGES.includes(manifest.name)) throw new Error(`${piDir} is not a Pi package (${manifest.name})`);
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.pi;
  return {
    piDir,
    name: manifest.name,
    version: manifest.version,
    cliPath: join(piDir, bin),
    engines: manifest.engines?.node,
  };
}

/**
 * Specifier → absolute file for everything the package imports from Pi. Pi 1.x resolves the pi-ai root to its
 * extension view (the compat entry plus TypeBox re-exports); Pi 0.x to its own pi-ai.
 */
export function piHostAliases(piDir) {
  const { name } = describePi(piDir);
  const scope = name.split("/")[0];
  const sibling = (pkg, subpath) => {
    const dir = packageDir(`${scope}/${pkg}`, piDir);
    if (dir === undefined) throw new Error(`${scope}/${pkg} is not installed beside ${piDir}`);
    return esmEntry(dir, subpath);
  };
  const extensionView = join(piDir, "dist", "core", "extensions", "pi-ai-extension-view.js");
  const typeboxDir = packageDir("typebox", piDir);
  return {
    "@mariozechner/pi-coding-agent": esmEntry(piDir),
    "@mariozechner/pi-agent-core": sibling("pi-agent-core"),
    "@mariozechner/pi-tui": sibling("pi-tui"),
    "@mariozechner/pi-ai": existsSync(extensionView) ? extensionView : sibling("pi-ai"),
    ...(typeboxDir === undefined
      ? {}
      : {
          typebox: esmEntry(typeboxDir),
          "typebox/compile": esmEntry(typeboxDir, "./compile"),
          "typebox/value": esmEntry(typeboxDir, "./value"),
        }),
  };
}
