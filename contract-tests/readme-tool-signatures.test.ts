import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { toolCatalogue, type ApplicationAccess } from "../domain/tools/service/tool-catalogue.ts";
import type { AnyHostToolSpec } from "../domain/shared/service/host-tool-spec.ts";
import { REPOSITORY_ROOT } from "./installed-tarball.ts";

// What the README says of each tool's parameters, checked against the schemas the hosts serve (issue 23):
// every parameter it names exists, is marked optional (`name?`) exactly when the schema does not require it,
// and a signature in a table row without `…` names them all (a call in prose, `bg_wait {taskId}`, need not). Every schema parameter carries a description for the model.

const unbuilt: ApplicationAccess = { ready: () => Promise.reject(new Error("not built")), built: () => undefined };
const specs = new Map<string, AnyHostToolSpec>(
  [
    ...toolCatalogue(unbuilt, { delivery: "agent_turn", sessions: true }),
    ...toolCatalogue(unbuilt, { delivery: "notification_and_wait", sessions: false }),
  ].map((spec) => [spec.name, spec]),
);

interface Schema {
  readonly properties?: Record<string, { description?: string }>;
  readonly required?: readonly string[];
}
const schemaOf = (spec: AnyHostToolSpec) => spec.parameters as unknown as Schema;

interface Signature {
  readonly tool: string;
  readonly params: readonly { name: string; optional: boolean }[];
  readonly complete: boolean;
}

/** `bg_logs {taskId, maxBytes? (≤ 50 KiB), tail? = true, offset?}` → its tool and parameters. */
function signatures(readme: string): Signature[] {
  return readme.split("\n").flatMap((line) =>
    [...line.matchAll(/`([a-z_]+) \{([^`}]*)\}`/g)].map(([, tool = "", list = ""]) => {
      const items = list.split(",").map((item) => item.trim());
      const params = items
        .filter((item) => /^[a-zA-Z]/.test(item))
        .map((item) => {
          const [, name = "", mark] = /^([a-zA-Z]+)(\?)?/.exec(item) ?? [];
          return { name, optional: mark === "?" };
        });
      return { tool, params, complete: line.startsWith("|") && !items.includes("…") };
    }),
  );
}

const README = readFileSync(join(REPOSITORY_ROOT, "README.md"), "utf8");

describe("the README's tool signatures", () => {
  const found = signatures(README);

  it("are found (the check reads something)", () => {
    expect(found.map((s) => s.tool)).toEqual(expect.arrayContaining(["bg_run", "bg_logs", "fusion_brainstorm"]));
  });

  it.each(found.map((s) => [`${s.tool} {${s.params.map((p) => p.name).join(", ")}}`, s] as const))(
    "%s matches the served schema",
    (_label, signature) => {
      const spec = specs.get(signature.tool);
      expect(spec, `${signature.tool} is not a served tool`).toBeDefined();
      if (spec === undefined) return;
      const { properties = {}, required = [] } = schemaOf(spec);
      for (const { name, optional } of signature.params) {
        expect(Object.keys(properties), `${signature.tool}.${name}`).toContain(name);
        expect(optional, `${signature.tool}.${name} is ${required.includes(name) ? "required" : "optional"}`).toBe(
          !required.includes(name),
        );
      }
      if (signature.complete)
        expect(signature.params.map((p) => p.name).sort()).toEqual(Object.keys(properties).sort());
    },
  );
});

describe("every served tool", () => {
  it.each([...specs.keys()])("%s describes each of its parameters", (name) => {
    const { properties = {} } = schemaOf(specs.get(name) as AnyHostToolSpec);
    const undescribed = Object.entries(properties).filter(([, p]) => (p.description ?? "").trim() === "");
    expect(undescribed.map(([key]) => key)).toEqual([]);
  });
});
