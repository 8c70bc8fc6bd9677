/**
 * How often and how patiently a Fusion child's Pi retries a transient provider failure (429, 5xx, overloaded,
 * a dropped connection) on its own route. Pi's agent-level retry is the one layer that retries: it waits
 * `baseDelayMs · 2^(n-1)` before retry n (2 s, 4 s, 8 s) and does not read `Retry-After`; every failed call
 * ends as an assistant message with stopReason "error", so the parent sees each one in the child's frames.
 */
export interface ChildRetryPolicy {
  readonly maxRetries: number;
  readonly baseDelayMs: number;
}

export const CHILD_RETRY_POLICY: ChildRetryPolicy = { maxRetries: 3, baseDelayMs: 2_000 };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The `settings.json` of a child's agent dir: the user's settings (`text`, as Pi reads them: JSON after an
 * optional BOM; unreadable ones count as none, as Pi ignores them too) with `retry` set explicitly. The
 * provider SDK's own retries are set to 0 (Pi 0.73 otherwise leaves the OpenAI and Anthropic SDKs at their
 * default of 2 silent retries per call, which honour `Retry-After`); the user's provider timeout and
 * server-delay cap stay.
 */
export function childSettingsJson(text: string | undefined, policy: ChildRetryPolicy): string {
  const user = parseSettings(text);
  const retry = isObject(user.retry) ? user.retry : {};
  const provider = isObject(retry.provider) ? retry.provider : {};
  const settings = {
    ...user,
    retry: {
      ...retry,
      enabled: true,
      maxRetries: policy.maxRetries,
      baseDelayMs: policy.baseDelayMs,
      provider: { ...provider, maxRetries: 0 },
    },
  };
  return `${JSON.stringify(settings, null, 2)}\n`;
}

function parseSettings(text: string | undefined): Json {
  if (text === undefined) return {};
  try {
    const value: unknown = JSON.parse(text.replace(/^\uFEFF/, ""));
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}
