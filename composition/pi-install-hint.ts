import { PI_CLI_OVERRIDE_ENV } from "../adapters/node/pi-cli-locator.ts";

/** What a host without a Pi CLI says at start-up, and what a Fusion tool answers then. */
export function piInstallHint(reason: string): string {
  return [
    `No Pi CLI found: ${reason}.`,
    "The bg_* tools work without it; agent telemetry for isAgent tasks and the Fusion tools need a `pi` CLI.",
    `Install it with \`npm install -g @mariozechner/pi-coding-agent\`, or set ${PI_CLI_OVERRIDE_ENV} to Pi's cli.js.`,
  ].join(" ");
}
