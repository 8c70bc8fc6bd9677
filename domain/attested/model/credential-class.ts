/**
 * The credential class of an attested run, from the provider and Pi's `ModelRegistry.isUsingOAuth(model)`.
 *
 * The reference implementation refuses anything but an OAuth subscription of `openai-codex` or `anthropic`.
 * This package records the class honestly instead and does not refuse other routes (an API key, a local or
 * scripted `models.json` provider): the attestation says which class it was, and a reader who accepts only
 * subscriptions checks `auth_class`. Recorded in DESIGN as a deliberate deviation.
 */

export type AuthClass = "pi-codex-oauth" | "pi-anthropic-oauth" | "pi-oauth-other" | "api-key-or-local";

export interface CredentialClass {
  readonly authClass: AuthClass;
  readonly credentialKind: "oauth" | "api-key-or-local";
  /** `subscription-codex`, `subscription-anthropic`, `subscription-<provider>` or `api-or-local`. */
  readonly channel: string;
}

export function credentialClassOf(provider: string, usingOAuth: boolean): CredentialClass {
  if (!usingOAuth)
    return { authClass: "api-key-or-local", credentialKind: "api-key-or-local", channel: "api-or-local" };
  if (provider === "openai-codex")
    return { authClass: "pi-codex-oauth", credentialKind: "oauth", channel: "subscription-codex" };
  if (provider === "anthropic")
    return { authClass: "pi-anthropic-oauth", credentialKind: "oauth", channel: "subscription-anthropic" };
  return { authClass: "pi-oauth-other", credentialKind: "oauth", channel: `subscription-${provider}` };
}
