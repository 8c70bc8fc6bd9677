import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { containerSettingsFiles } from "./container-settings-files.ts";

function dirs() {
  const root = mkdtempSync(join(tmpdir(), "container-settings-"));
  const agent = join(root, "agent");
  const cwd = join(root, "project");
  mkdirSync(agent);
  mkdirSync(join(cwd, ".pi"), { recursive: true });
  return { root, agent, cwd };
}

describe("container settings files", () => {
  it("no files: the defaults", async () => {
    const { agent, cwd } = dirs();
    expect(await containerSettingsFiles(agent, cwd)()).toEqual({
      ok: true,
      value: { network: false, pidsLimit: 4096 },
    });
  });

  it("the user's file, narrowed by the project's; an edit applies to the next read", async () => {
    const { agent, cwd } = dirs();
    writeFileSync(join(agent, "bg-containers.json"), JSON.stringify({ image: "node:22", network: true, cpus: 2 }));
    writeFileSync(join(cwd, ".pi", "bg-containers.json"), JSON.stringify({ network: false }));
    const read = containerSettingsFiles(agent, cwd);
    expect(await read()).toMatchObject({ ok: true, value: { image: "node:22", network: false, cpus: 2 } });
    writeFileSync(join(cwd, ".pi", "bg-containers.json"), JSON.stringify({ cpus: 1 }));
    expect(await read()).toMatchObject({ ok: true, value: { network: true, cpus: 1 } });
  });

  it("a project file that is a symlink (to a wider file elsewhere) is refused, not followed", async () => {
    const { root, agent, cwd } = dirs();
    writeFileSync(join(root, "elsewhere.json"), JSON.stringify({ pidsLimit: 10 }));
    symlinkSync(join(root, "elsewhere.json"), join(cwd, ".pi", "bg-containers.json"));
    const r = await containerSettingsFiles(agent, cwd)();
    expect(r.ok || r.error).toMatchObject({
      code: "container_config_invalid",
      message: expect.stringContaining("symbolic link"),
    });
  });
});
