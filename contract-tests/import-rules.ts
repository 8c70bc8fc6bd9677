/**
 * The import rules of DESIGN.md as data, so the architecture test and its own mutation test
 * read the same table.
 */
export type Layer =
  | "domain-model"
  | "domain-service"
  | "ports"
  | "adapter"
  | "child-program"
  | "composition"
  | "contract-tests"
  | "free";

export interface ImportFact {
  readonly file: string; // repository-relative, forward slashes
  readonly specifier: string;
  readonly resolved?: string; // repository-relative target for relative specifiers
  /** `path`: a `new URL("…", import.meta.url)` reference (a file read or a program started), not an import. */
  readonly kind?: "import" | "path";
}

/**
 * Every program that runs inside a child process (the Pi extensions loaded into Fusion, delegate and
 * hook-probe children) lives in adapters/pi/child/. Each is the composition root of its own process: it
 * may wire any adapter, but no code of this process imports one (composition only imports their path
 * tables); everyone else reaches them by path.
 */
const CHILD_PROGRAMS = "adapters/pi/child/";

export function layerOf(file: string): Layer {
  if (/^domain\/[^/]+\/model\//.test(file)) return "domain-model";
  if (/^domain\/[^/]+\/service\//.test(file)) return "domain-service";
  if (file.startsWith("domain/")) return "domain-model";
  if (file.startsWith("ports/")) return "ports";
  if (file.startsWith(CHILD_PROGRAMS)) return "child-program";
  if (file.startsWith("adapters/")) return "adapter";
  if (file.startsWith("composition/")) return "composition";
  if (file.startsWith("contract-tests/")) return "contract-tests";
  return "free";
}

/** Test files and their test-only support modules. */
const isTest = (file: string) => /\.test(-support)?\.ts$/.test(file);
const adapterTech = (file: string) => file.split("/")[1] ?? "";

/** Returns why the import breaks a rule, or undefined when it is allowed. */
export function violation(fact: ImportFact): string | undefined {
  const layer = layerOf(fact.file);
  const target = fact.resolved;
  const pkg = target === undefined ? fact.specifier : undefined;
  if (isTest(fact.file) && testOnlyAllowance(fact)) return undefined;
  if (fact.kind === "path" && target !== undefined && layerOf(target) === "child-program") {
    return ["adapter", "child-program", "composition"].includes(layer)
      ? undefined
      : `only adapters and composition may start the child program '${target}'`;
  }
  switch (layer) {
    case "domain-model":
      if (pkg !== undefined)
        return pkg === "node:crypto" || pkg === "typebox" || pkg.startsWith("typebox/")
          ? undefined
          : `domain model may not import package '${pkg}'`;
      return target !== undefined && layerOf(target) === "domain-model"
        ? undefined
        : `domain model may import only domain model modules, not '${target}'`;
    case "domain-service":
      if (pkg !== undefined) return `domain service may not import package '${pkg}'`;
      return target !== undefined && ["domain-model", "domain-service", "ports"].includes(layerOf(target))
        ? undefined
        : `domain service may import only domain and ports, not '${target}'`;
    case "ports":
      if (pkg !== undefined) return `ports may not import package '${pkg}'`;
      return target !== undefined && ["domain-model", "ports"].includes(layerOf(target))
        ? undefined
        : `ports may import only domain model types and ports, not '${target}'`;
    case "adapter":
      if (pkg !== undefined)
        return pkg === "inversify" || pkg.startsWith("inversify/")
          ? "only composition/ may import inversify"
          : undefined;
      if (target === undefined) return undefined;
      if (target.startsWith("domain/") || target.startsWith("ports/")) return undefined;
      if (layerOf(target) === "child-program" && !isTest(fact.file))
        return `'${target}' runs in a child process: reach it by path`;
      if (target.startsWith(`adapters/${adapterTech(fact.file)}/`)) return undefined;
      return `adapters/${adapterTech(fact.file)} may not import '${target}'`;
    case "child-program":
      if (pkg !== undefined)
        return pkg === "inversify" || pkg.startsWith("inversify/")
          ? "only composition/ may import inversify"
          : undefined;
      if (target === undefined) return undefined;
      if (isTest(target) && !isTest(fact.file)) return "a child program may not import test files";
      return ["domain-model", "domain-service", "ports", "adapter", "child-program"].includes(layerOf(target))
        ? undefined
        : `a child program may import only domain, ports and adapters, not '${target}'`;
    case "composition":
      return target !== undefined && isTest(target) ? "composition may not import test files" : undefined;
    case "contract-tests":
      if (pkg !== undefined)
        return pkg === "vitest" || pkg.startsWith("node:")
          ? undefined
          : `contract tests may not import package '${pkg}'`;
      return target !== undefined &&
        ["domain-model", "domain-service", "ports", "contract-tests"].includes(layerOf(target))
        ? undefined
        : `contract tests may not import '${target}'`;
    case "free":
      return pkg === "inversify" ? "only composition/ may import inversify" : undefined;
  }
}

/** Test files may also use the test toolkit, the shared contract suites and the fakes. */
function testOnlyAllowance(fact: ImportFact): boolean {
  const pkg = fact.resolved === undefined ? fact.specifier : undefined;
  if (pkg !== undefined) return ["vitest", "fast-check", "typescript"].includes(pkg) || pkg.startsWith("node:");
  const target = fact.resolved ?? "";
  return target.startsWith("contract-tests/") || target.startsWith("adapters/fake/");
}

/** Forbidden ambient calls in the pure domain (non-test files). */
export const DOMAIN_FORBIDDEN_CALLS: readonly RegExp[] = [
  /\bDate\.now\(/,
  /\bnew Date\(\)/,
  /\bMath\.random\(/,
  /\bsetTimeout\(/,
  /\bsetInterval\(/,
  /\bsetImmediate\(/,
  /\bprocess\./,
  /\brequire\(/,
];
