import {
  WEB_FETCH_TEST_ADMIT_CIDR_ENV,
  WEB_FETCH_TEST_SEAM_ENV,
} from "../../domain/web/model/web-fetch-test-seam-env.ts";
import { isStageOnly, isStrippedFromChild } from "./pi-child-env.ts";
import { looksLikeCredential, providerCredentialVariables } from "./provider-credentials.ts";
import { userAgentDir } from "./user-agent-dir.ts";

/**
 * The environment of a Fusion stage or a delegate, whose model is treated as possibly hijacked: only what Pi
 * needs to run (search path, home, user, locale, terminal, temp dir, XDG dirs, proxy and CA settings, the agent
 * dir) plus the credential variables of the child's own route's provider; nothing else of the parent's. The
 * stage's private protocol variables (`extra`) are added last. Attested runs are the user's own agent and keep
 * the parent's environment (pi-child-env.ts).
 */
const RUNTIME_EXACT = new Set([
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TERM",
  "COLORTERM",
  "NO_COLOR",
  "FORCE_COLOR",
  "TMPDIR",
  "TMP",
  "TEMP",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "XDG_RUNTIME_DIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "ALL_PROXY",
  "NODE_USE_ENV_PROXY",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "PI_CODING_AGENT_DIR",
  "PI_OFFLINE",
  WEB_FETCH_TEST_SEAM_ENV,
  WEB_FETCH_TEST_ADMIT_CIDR_ENV,
]);

/** Proxy variables are read in either case by Node and curl alike. */
const isRuntimeVariable = (name: string): boolean =>
  name.startsWith("LC_") ||
  RUNTIME_EXACT.has(name) ||
  (name.endsWith("_proxy") && RUNTIME_EXACT.has(name.toUpperCase()));

export function confinedChildEnv(
  parent: Readonly<Record<string, string | undefined>>,
  provider: string,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const own = new Set(providerCredentialVariables(provider, userAgentDir(parent)));
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || isStageOnly(name)) continue;
    if (own.has(name) || (isRuntimeVariable(name) && !isStrippedFromChild(name))) env[name] = value;
  }
  env.PI_SKIP_VERSION_CHECK = "1";
  for (const [name, value] of Object.entries(extra)) {
    if (isStrippedFromChild(name) || (!own.has(name) && !isStageOnly(name) && looksLikeCredential(name)))
      throw new Error(`confinedChildEnv: the stage env may not set the credential variable ${name}`);
    env[name] = value;
  }
  return env;
}
