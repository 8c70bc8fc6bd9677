import { Value } from "typebox/value";
import type { Usage } from "../../shared/model/usage.ts";
import { canonicalJson, sha256Hex } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { delegateError, remedyFor, type DelegateError } from "./delegate-error.ts";
import { routeLabel, sameRoute } from "./delegate-route.ts";
import type { DelegateResultPackage, ResultIdentity } from "./result-package.ts";
import { DelegateResultPackageSchema } from "./result-package-schema.ts";
import { attestationMatches, describeAttestation, type RouteAttestation } from "./route-attestation.ts";

export type VerificationCode =
  | "child_result_invalid"
  | "child_result_encoding_invalid"
  | "route_attestation_missing"
  | "route_mismatch"
  | "seed_hash_mismatch"
  | "answer_hash_mismatch";

/** An answer whose every byte was checked; `bytes` is the buffer the checks ran over. */
export interface VerifiedAnswer {
  readonly bytes: Uint8Array;
  readonly text: string;
  readonly sha256: string;
  /** The package's own seal: pinned at acceptance together with `sha256`. */
  readonly packageSha256: string;
  readonly usage: Usage | "unavailable";
  readonly attestations: readonly RouteAttestation[];
}

type Failure = { readonly code: VerificationCode; readonly why: string };

/**
 * Strict check of a committed `result.json`: schema, identity, nonce, seed hash, route and every
 * attestation, strict base64, every block hash, the aggregate hash and a lossless UTF-8 round trip.
 * `where` names the package for the error text.
 */
export function verifyResultPackage(
  bytes: Uint8Array,
  expected: ResultIdentity,
  where: string,
): Result<VerifiedAnswer, DelegateError<VerificationCode>> {
  const checked = check(bytes, expected);
  if (checked.ok) return checked;
  const { code, why } = checked.error;
  return err(
    delegateError(code, {
      happened: `the committed result package ${where} failed verification: ${why}. No byte of its answer is returned.`,
      preserved: `the package is left exactly as found at ${where}.`,
      remedy: remedyFor(code),
      childCreated: true,
    }),
  );
}

function check(bytes: Uint8Array, expected: ResultIdentity): Result<VerifiedAnswer, Failure> {
  const text = decodeUtf8(bytes);
  if (text === undefined) return fail("child_result_encoding_invalid", "the file is not valid UTF-8");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return fail("child_result_invalid", "the file is not JSON");
  }
  if (!Value.Check(DelegateResultPackageSchema, raw))
    return fail("child_result_invalid", "the file does not match pi-background-tasks.delegate-result.v1");
  const pkg = raw as DelegateResultPackage;
  const identity = checkIdentity(pkg, expected);
  if (identity !== undefined) return err(identity);
  const answer = checkAnswer(pkg);
  if (!answer.ok) return answer;
  const sealed = checkSeal(pkg, text);
  if (sealed !== undefined) return err(sealed);
  return ok({
    bytes: answer.value,
    text: answer.value.length === 0 ? "" : (decodeUtf8(answer.value) ?? ""),
    sha256: pkg.answer.sha256,
    packageSha256: pkg.package_sha256,
    usage: pkg.usage,
    attestations: pkg.route_attestations,
  });
}

function checkIdentity(pkg: DelegateResultPackage, expected: ResultIdentity): Failure | undefined {
  if (pkg.task_id !== expected.taskId)
    return { code: "child_result_invalid", why: `it names task ${pkg.task_id}, not ${expected.taskId}` };
  if (pkg.launch_nonce !== expected.launchNonce)
    return { code: "child_result_invalid", why: "its launch nonce is not this launch's" };
  if (pkg.seed_sha256 !== expected.seedSha256)
    return { code: "seed_hash_mismatch", why: `it was built on seed ${pkg.seed_sha256}, not ${expected.seedSha256}` };
  if (!sameRoute(pkg.route, expected.route))
    return {
      code: "route_mismatch",
      why: `it names route ${routeLabel(pkg.route)}, not the pinned ${routeLabel(expected.route)}`,
    };
  if (pkg.route_attestations.length === 0)
    return { code: "route_attestation_missing", why: "it attests no assistant message" };
  const stray = pkg.route_attestations.find((a) => !attestationMatches(expected.route, a));
  if (stray !== undefined)
    return {
      code: "route_mismatch",
      why: `message ${stray.index} came from ${describeAttestation(stray)}, not the pinned ${routeLabel(expected.route)}`,
    };
  const last = pkg.route_attestations[pkg.route_attestations.length - 1];
  if (last?.stop_reason !== "stop")
    return {
      code: "child_result_invalid",
      why: `its final message stopped with '${last?.stop_reason ?? ""}', not 'stop'`,
    };
  return undefined;
}

/** The file must be the canonical form of what it says, and that content must match its own hash. */
function checkSeal(pkg: DelegateResultPackage, text: string): Failure | undefined {
  const { package_sha256: seal, ...body } = pkg;
  const bodyJson = canonicalJson(body);
  if (!bodyJson.ok || sha256Hex(bodyJson.value) !== seal)
    return { code: "child_result_invalid", why: "its content does not match its package_sha256" };
  const whole = canonicalJson(pkg);
  if (!whole.ok || whole.value !== text)
    return { code: "child_result_invalid", why: "it is not in canonical JSON form" };
  return undefined;
}

function checkAnswer(pkg: DelegateResultPackage): Result<Uint8Array, Failure> {
  const { answer } = pkg;
  const parts: Uint8Array[] = [];
  for (const [position, block] of answer.blocks.entries()) {
    if (block.index !== position)
      return fail("child_result_invalid", `answer block ${position} is numbered ${block.index}`);
    const decoded = strictBase64(block.base64);
    if (decoded === undefined)
      return fail("child_result_encoding_invalid", `answer block ${position} is not strict base64`);
    if (decoded.length !== block.bytes)
      return fail(
        "answer_hash_mismatch",
        `answer block ${position} holds ${decoded.length} bytes, not the recorded ${block.bytes}`,
      );
    if (sha256Hex(decoded) !== block.sha256)
      return fail("answer_hash_mismatch", `answer block ${position} does not match its SHA-256`);
    if (
      decoded.length > answer.block_bytes ||
      (position < answer.blocks.length - 1 && decoded.length !== answer.block_bytes)
    ) {
      return fail(
        "child_result_invalid",
        `answer block ${position} has ${decoded.length} bytes where ${answer.block_bytes}-byte blocks were declared`,
      );
    }
    parts.push(decoded);
  }
  const whole = concat(parts);
  if (whole.length !== answer.utf8_bytes)
    return fail("answer_hash_mismatch", `the answer has ${whole.length} bytes, not the recorded ${answer.utf8_bytes}`);
  if (sha256Hex(whole) !== answer.sha256)
    return fail("answer_hash_mismatch", "the answer does not match its aggregate SHA-256");
  const text = decodeUtf8(whole);
  if (text === undefined) return fail("child_result_encoding_invalid", "the answer bytes are not valid UTF-8");
  if (text.trim().length === 0) return fail("child_result_invalid", "the answer is empty or whitespace only");
  return ok(whole);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Canonical base64 only: the right alphabet and padding, and the decoded bytes re-encode to the same text. */
export function strictBase64(text: string): Uint8Array | undefined {
  if (!BASE64.test(text)) return undefined;
  const bytes = Buffer.from(text, "base64");
  return bytes.toString("base64") === text ? new Uint8Array(bytes) : undefined;
}

/** Fatal UTF-8 decoding that keeps a leading BOM, so decode → encode is the identity. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function fail(code: VerificationCode, why: string): Result<never, Failure> {
  return err({ code, why });
}
