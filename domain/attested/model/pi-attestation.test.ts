import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sealAttestation, verifyAttestation, type AttestationBody } from "./pi-attestation.ts";

const digest = (path: string, text: string) => ({
  path,
  bytes: Buffer.byteLength(text),
  sha256: createHash("sha256").update(text).digest("hex"),
});
const OID = "c".repeat(40);

const BODY: AttestationBody = {
  schema_version: "phase2.pi_task_attestation.v1",
  locator: {
    task_id: `b${"0".repeat(32)}`,
    task_dir: ".pi/tasks/s-1",
    attestation_path: `.pi/tasks/s-1/b${"0".repeat(32)}.attestation.json`,
  },
  sources: { metadata: digest("m.json", "{}"), wrapper: "direct-spawn: no shell, no telemetry wrapper" },
  lifecycle: { status: "completed", start_time_ms: 1, end_time_ms: 2, exit_code: 0, pid: 42 },
  invocation: {
    session_id: "s",
    argv: ["pi", "--mode", "json"],
    process_argv: ["/usr/bin/node", "cli.js", "--mode", "json"],
    shell: false,
    prompt_transport: "stdin",
    cwd_realpath: "/w",
    provider: "p",
    model: "m",
    thinking: null,
    api: "openai-completions",
    auth_class: "api-key-or-local",
    credential_kind: "api-key-or-local",
    channel: "api-or-local",
    direct_api_key: false,
    final_stop_reason: "stop",
  },
  authority: {
    repo_root_realpath: "/w",
    start: { head: OID, tree: OID, clean: true },
    finish: { head: OID, tree: OID, clean: true },
    ignored_paths: [".pi/tasks/"],
    allowed_change: "r.md",
  },
  artifacts: {
    prompt: digest("stdin", "p"),
    output: digest("o", "o"),
    events: digest("e", "e"),
    stderr: digest("s", ""),
    report: digest("r.md", "report"),
  },
};

describe("attestation sidecar", () => {
  it("seals to canonical JSON whose self-hash covers every other field, and verifies", () => {
    const sealed = sealAttestation(BODY);
    if (!sealed.ok) throw new Error(sealed.error.message);
    const parsed = JSON.parse(sealed.value) as Record<string, unknown>;
    const { attestation_sha256: claimed, ...rest } = parsed;
    const keys = (o: object) => Object.keys(o);
    expect(keys(parsed)).toEqual([...keys(parsed)].sort());
    expect(sealed.value).not.toMatch(/\n|": /);
    expect(claimed).toBe(
      createHash("sha256")
        .update(JSON.stringify(sortDeep(rest)))
        .digest("hex"),
    );
    expect(verifyAttestation(sealed.value)).toMatchObject({ ok: true });
  });

  it("any edit breaks verification: a field, the hash, or the byte form", () => {
    const sealed = sealAttestation(BODY);
    if (!sealed.ok) throw new Error(sealed.error.message);
    const code = (text: string) => {
      const r = verifyAttestation(text);
      return r.ok ? "ok" : r.error.message;
    };
    expect(code(sealed.value.replace('"model":"m"', '"model":"x"'))).toContain("does not match the sidecar");
    expect(
      code(sealed.value.replace(/"attestation_sha256":"[0-9a-f]{64}"/, `"attestation_sha256":"${"0".repeat(64)}"`)),
    ).toContain("does not match the sidecar");
    expect(code(JSON.stringify(JSON.parse(sealed.value), null, 2))).toContain("canonical");
    expect(code(sealed.value.replace('"direct_api_key":false', '"direct_api_key":true'))).toContain(
      "does not match phase2",
    );
    expect(code("not json")).toContain("not JSON");
  });

  it("refuses to seal a body that breaks the schema", () => {
    const r = sealAttestation({ ...BODY, lifecycle: { ...BODY.lifecycle, exit_code: 1 as 0 } });
    expect(r.ok ? "ok" : r.error.code).toBe("attestation_invalid");
  });
});

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortDeep((value as Record<string, unknown>)[k])]),
  );
}
