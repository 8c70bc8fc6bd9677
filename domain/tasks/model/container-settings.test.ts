import { describe, expect, it } from "vitest";
import { containerSettings, parseContainerSettings } from "./container-settings.ts";

const parse = (text: string) => parseContainerSettings(new TextEncoder().encode(text), "f.json");

describe("container settings", () => {
  it("defaults: no network, 4096 pids, no image", () => {
    expect(containerSettings(undefined, undefined, "p")).toEqual({
      ok: true,
      value: { network: false, pidsLimit: 4096 },
    });
  });

  it("the user's file sets the defaults; the project's may narrow them", () => {
    const user = { image: "node:22", cpus: 4, memoryBytes: 2 ** 31, network: true };
    const project = { cpus: 1, memoryBytes: 2 ** 30, pidsLimit: 100, network: false };
    expect(containerSettings(user, project, "p")).toEqual({
      ok: true,
      value: { image: "node:22", cpus: 1, memoryBytes: 2 ** 30, pidsLimit: 100, network: false },
    });
    expect(containerSettings({}, { cpus: 2 }, "p")).toMatchObject({ ok: true, value: { cpus: 2 } }); // a limit where there was none
  });

  it("Swarm constraints: the project's are added to the user's (they only narrow where a job may run)", () => {
    const r = containerSettings(
      { swarmConstraints: ["node.role==manager"] },
      { swarmConstraints: ["node.labels.ssd==true"] },
      "p",
    );
    expect(r).toMatchObject({ ok: true, value: { swarmConstraints: ["node.role==manager", "node.labels.ssd==true"] } });
    expect(parse('{"swarmConstraints": ["node.id==x; rm -rf /"]}').ok).toBe(false);
  });

  it.each([
    [{ network: true }, "network"],
    [{ image: "evil:latest" }, "image"],
    [{ pidsLimit: 100_000 }, "pidsLimit"],
    [{ cpus: 8 }, "cpus"],
  ])("a project file that widens %j is refused whole, naming it", (project, what) => {
    const r = containerSettings({ cpus: 4 }, project, "/w/.pi/bg-containers.json");
    expect(r.ok || r.error).toMatchObject({
      code: "container_config_invalid",
      message: expect.stringMatching(new RegExp(`/w/\\.pi/bg-containers\\.json may only narrow.*${what}`)),
    });
  });

  it.each([
    ["{", "is not JSON"],
    ['{"netwrok": false}', "does not fit its schema"],
    ['{"pidsLimit": 0}', "does not fit its schema"],
    ['{"image": "-rm x"}', "does not fit its schema"],
  ])("a malformed file %s is a typed error naming it", (text, problem) => {
    const r = parse(text);
    expect(r.ok || r.error).toMatchObject({
      code: "container_config_invalid",
      message: expect.stringContaining(`f.json ${problem}`),
    });
  });
});
