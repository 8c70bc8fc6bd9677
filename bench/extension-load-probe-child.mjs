// One round of bench/extension-load-probe.ts, in plain JavaScript so that no TypeScript loader hook sits between
// Node and what is measured. Loads the extension entry (argv[2]) as Pi 0.73.1's loader.js does — Pi's own jiti,
// `createJiti(loader.js, { moduleCache: false, alias })`, after loader.js and the packages it bundles are in
// memory — times every module body jiti evaluates and every native import it makes, then calls the factory
// with a stand-in ExtensionAPI. Prints one JSON object: { evaluateMs, factoryMs, modules: [{ name, self, inclusive }] }.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import vm from "node:vm";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const entry = process.argv[2];
if (entry === undefined) throw new Error("usage: node extension-load-probe-child.mjs <extension entry>");
const loaderPath = resolve(root, "node_modules/@mariozechner/pi-coding-agent/dist/core/extensions/loader.js");
const piRequire = createRequire(loaderPath);

/** The alias table of loader.js's getAliases() (not exported); packages are hoisted, so they resolve from here alike. */
function piAliases() {
  const esm = (specifier) => fileURLToPath(import.meta.resolve(specifier));
  const typebox = piRequire.resolve("typebox");
  const compile = piRequire.resolve("typebox/compile");
  const value = piRequire.resolve("typebox/value");
  return {
    "@mariozechner/pi-coding-agent": resolve(dirname(loaderPath), "../..", "index.js"),
    "@mariozechner/pi-agent-core": esm("@mariozechner/pi-agent-core"),
    "@mariozechner/pi-tui": esm("@mariozechner/pi-tui"),
    "@mariozechner/pi-ai": esm("@mariozechner/pi-ai"),
    "@mariozechner/pi-ai/oauth": esm("@mariozechner/pi-ai/oauth"),
    typebox,
    "typebox/compile": compile,
    "typebox/value": value,
    "@sinclair/typebox": typebox,
    "@sinclair/typebox/compile": compile,
    "@sinclair/typebox/value": value,
  };
}

/** Names relative to the entry's package (the nearest package.json above it), so another tree reads the same. */
function packageRootOf(file) {
  for (let dir = dirname(file); dirname(dir) !== dir; dir = dirname(dir))
    if (existsSync(resolve(dir, "package.json"))) return dir;
  return root;
}
const labelRoot = packageRootOf(resolve(entry));
const label = (file) => (file.startsWith(`${labelRoot}/`) ? relative(labelRoot, file) : file);
const timings = new Map();
const stack = [];

/** Inclusive time of `run`, and self time net of the measured work nested in it (imports are awaited one by one). */
async function measure(name, run) {
  const timing = timings.get(name) ?? { name, self: 0, inclusive: 0 };
  timings.set(name, timing);
  const parent = stack.at(-1);
  stack.push(timing);
  const start = performance.now();
  try {
    return await run();
  } finally {
    const spent = performance.now() - start;
    stack.pop();
    timing.inclusive += spent;
    timing.self += spent;
    if (parent !== undefined) parent.self -= spent;
  }
}

// What Pi has in memory before it loads any extension.
await import(pathToFileURL(loaderPath).href);
const jitiDist = dirname(piRequire.resolve("jiti")).replace(/lib$/, "dist");
const createJiti = piRequire(resolve(jitiDist, "jiti.cjs"));
const transform = piRequire(resolve(jitiDist, "babel.cjs"));

// jiti evaluates each transpiled module as a function compiled by vm.runInThisContext(code, { filename }).
const original = vm.runInThisContext;
vm.runInThisContext = (code, options) => {
  const compiled = original(code, options);
  const filename = typeof options === "object" ? options.filename : undefined;
  if (typeof compiled !== "function" || filename === undefined) return compiled;
  return (...args) => measure(label(filename), () => compiled(...args));
};
const nativeImport = (id) => measure(`${label(id)} (native import)`, () => import(id));
const jiti = createJiti(
  loaderPath,
  { moduleCache: false, alias: piAliases(), transform },
  {
    onError: (error) => {
      throw error;
    },
    nativeImport,
    createRequire,
  },
);

const started = performance.now();
const factory = await jiti.import(entry, { default: true });
const evaluateMs = performance.now() - started;
vm.runInThisContext = original;
if (typeof factory !== "function") throw new Error(`${entry} has no default factory`);

// Registration only, as during Pi's load: every ExtensionAPI method is a no-op.
const noop = () => undefined;
const pi = new Proxy(
  { events: { on: () => noop, emit: noop } },
  { get: (target, key) => (key in target ? target[key] : noop) },
);
const factoryStart = performance.now();
await factory(pi);
const factoryMs = performance.now() - factoryStart;
process.stdout.write(JSON.stringify({ evaluateMs, factoryMs, modules: [...timings.values()] }));
