import { readFileSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";

/**
 * Which Pi and Node a test lane runs, so the scripted model servers can refuse a model call from any other:
 * a lane that silently fell back to the other Pi (or to a Node that cannot run its Pi) fails instead of
 * passing. scripts/run-tests.mjs sets it for each lane as JSON in PI_BG_TEST_EXPECT_CLIENT.
 */
export interface ClientExpectation {
  /** `process.version` of the Node every pi process of the lane must run on, e.g. "v22.23.5". */
  readonly node: string;
  /** The Pi release of the lane, e.g. "1.6.0" or "0.73.1". */
  readonly pi: string;
}

export const EXPECT_CLIENT_ENV = "PI_BG_TEST_EXPECT_CLIENT";

export function clientExpectationFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): ClientExpectation | undefined {
  const raw = env[EXPECT_CLIENT_ENV];
  if (raw === undefined || raw === "") return undefined;
  const parsed = JSON.parse(raw) as Partial<ClientExpectation>;
  if (typeof parsed.node !== "string" || typeof parsed.pi !== "string")
    throw new Error(`${EXPECT_CLIENT_ENV} must be {"node":"vX.Y.Z","pi":"X.Y.Z"}, got ${raw}`);
  return { node: parsed.node, pi: parsed.pi };
}

/**
 * What a request's headers say about its sender, checked against the lane: the OpenAI client Pi uses sends
 * the Node version as `x-stainless-runtime-version`; Pi 1.x names itself in `user-agent` as
 * `pi/<version> (…)`, while Pi 0.x leaves the OpenAI client's own `OpenAI/JS <version>`.
 * Returns undefined when the sender is the lane's, else what differs. A request without the OpenAI client's
 * headers comes from no pi at all (a test's own `fetch`), and is not a lane's to judge.
 */
export function clientMismatch(headers: IncomingHttpHeaders, expected: ClientExpectation): string | undefined {
  const runtime = headers["x-stainless-runtime-version"];
  if (runtime === undefined) return undefined;
  const agent = headers["user-agent"] ?? "";
  const piMajor = Number(expected.pi.split(".")[0]);
  const agentOk = piMajor >= 1 ? agent.startsWith(`pi/${expected.pi} `) : agent.startsWith("OpenAI/JS ");
  if (runtime === expected.node && agentOk) return undefined;
  return `a model call came from user-agent '${agent}' on Node ${String(runtime)}, but this lane runs Pi ${expected.pi} on Node ${expected.node}`;
}

/** The lane's Pi release: the one named for the lane, else the Pi 0.73 devDependency the plain suite runs. */
export function lanePiVersion(): string {
  const expected = clientExpectationFromEnv();
  if (expected !== undefined) return expected.pi;
  const manifest = new URL("../../node_modules/@mariozechner/pi-coding-agent/package.json", import.meta.url);
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}
