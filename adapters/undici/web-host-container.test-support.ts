import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A web host in a container for the pinned-HTTP container tests, built offline: the image is `FROM
 * scratch` plus Debian's static busybox (no registry is reachable), serving `busybox httpd` with static
 * pages and CGI scripts. It runs on a Docker network of our own whose subnet is a documentation range
 * (203.0.113.0/24) that the default address policy refuses; the host reaches it over the bridge route.
 *
 * Import this only after TESTCONTAINERS_RYUK_DISABLED / TESTCONTAINERS_HOST_OVERRIDE are set (see
 * `requireDockerEngine()` in adapters/fake/task-image.test-support.ts): testcontainers reads them when it first connects.
 */
export const WEB_HOST_SUBNET = "203.0.113.0/24";
export const WEB_HOST_IMAGE = "pi-background-tasks-web-host:test";
const BUSYBOX = "/bin/busybox";
const LABEL = "pi-background-tasks.test";
const LABEL_VALUE = "web-fetch";

export const PAGE_HTML = `<!doctype html>
<html><head><title>Container page</title><style>body { color: red }</style>
<script>document.write("tracker-from-script")</script></head>
<body><h1>Container Guide</h1>
<p>Read the <a href="/docs/next.html?from=guide">next chapter</a> before you start.</p>
<table><tr><th>Flag</th><th>Meaning</th></tr><tr><td>timeout</td><td>seconds to wait</td></tr></table>
</body></html>
`;

const cgi = (body: string) => `#!/bin/sh\n${body}\n`;

/** CGI scripts: busybox turns a `Status:` header into the status line. */
const SCRIPTS: Readonly<Record<string, string>> = {
  hop1: cgi(
    `printf 'Status: 302 Found\\r\\nLocation: hop2\\r\\nContent-Type: text/plain\\r\\n\\r\\nredirect body never read\\n'`,
  ),
  hop2: cgi(`printf 'Status: 301 Moved Permanently\\r\\nLocation: http://www.web.test/cgi-bin/hop3\\r\\n\\r\\n'`),
  hop3: cgi(`printf 'Status: 307 Temporary Redirect\\r\\nLocation: ../page.html\\r\\n\\r\\n'`),
  count: cgi(
    [
      `n=\${QUERY_STRING:-0}`,
      `if [ "$n" -gt 0 ]; then printf 'Status: 302 Found\\r\\nLocation: /cgi-bin/count?%s\\r\\n\\r\\n' $((n - 1));`,
      `else printf 'Content-Type: text/plain\\r\\n\\r\\narrived after the redirects\\n'; fi`,
    ].join("\n"),
  ),
  away: cgi(
    [
      `case "$QUERY_STRING" in`,
      `  ten) loc=http://10.0.0.1/ ;;`,
      `  loopback) loc=http://127.0.0.1/ ;;`,
      `  metadata) loc=http://169.254.169.254/latest/meta-data/ ;;`,
      `  v6loopback) loc='http://[::1]/' ;;`,
      `  evil) loc=http://evil.test/ ;;`,
      `  localhost) loc=http://localhost./ ;;`,
      `  *) loc=/page.html ;;`,
      `esac`,
      `printf 'Status: 302 Found\\r\\nLocation: %s\\r\\n\\r\\n' "$loc"`,
    ].join("\n"),
  ),
  "big-stream": cgi(`printf 'Content-Type: text/plain\\r\\n\\r\\n'; head -c 3145728 /dev/zero | tr '\\0' 'b'`),
  slow: cgi(`sleep 8; printf 'Content-Type: text/plain\\r\\n\\r\\ntoo late\\n'`),
  "slow-body": cgi(`printf 'Content-Type: text/plain\\r\\n\\r\\nfirst part\\n'; sleep 8; printf 'second part\\n'`),
  binary: cgi(`printf 'Content-Type: application/octet-stream\\r\\n\\r\\n'; head -c 2048 /dev/urandom`),
  markdown: cgi(`printf 'Content-Type: text/markdown; charset=utf-8\\r\\n\\r\\n# Notes\\n\\n- [link](/page.html)\\n'`),
};

const DOCKERFILE = `FROM scratch
COPY busybox /bin/busybox
RUN ["/bin/busybox", "--install", "-s", "/bin"]
COPY www /www
RUN ["/bin/sh", "-c", "chmod 755 /www/cgi-bin/* && head -c 3145728 /dev/zero | tr '\\\\0' 'a' > /www/big.txt && head -c 4096 /dev/urandom > /www/data.bin"]
ENTRYPOINT ["/bin/busybox", "httpd", "-f", "-p", "80", "-h", "/www"]
`;

/** Writes the build context (Dockerfile, busybox, pages, CGI scripts) to a fresh temp dir. */
export function writeWebHostContext(): string {
  if (!existsSync(BUSYBOX))
    throw new Error(`${BUSYBOX} is missing: install Debian's busybox-static (apt-get install -y busybox-static)`);
  const dir = mkdtempSync(join(tmpdir(), "web-host-image-"));
  copyFileSync(BUSYBOX, join(dir, "busybox"));
  mkdirSync(join(dir, "www", "cgi-bin"), { recursive: true });
  mkdirSync(join(dir, "www", "docs"));
  writeFileSync(join(dir, "Dockerfile"), DOCKERFILE);
  writeFileSync(join(dir, "www", "page.html"), PAGE_HTML);
  writeFileSync(join(dir, "www", "ready.txt"), "ready\n");
  writeFileSync(join(dir, "www", "docs", "next.html"), "<h2>Next</h2>\n");
  for (const [name, body] of Object.entries(SCRIPTS))
    writeFileSync(join(dir, "www", "cgi-bin", name), body, { mode: 0o755 });
  return dir;
}

export interface WebHost {
  /** The container's address on the project's network. */
  readonly address: string;
  stop(): Promise<void>;
}

export async function startWebHost(): Promise<WebHost> {
  const { GenericContainer, Wait, getContainerRuntimeClient } = await import("testcontainers");
  const client = await getContainerRuntimeClient();
  const context = writeWebHostContext();
  try {
    await GenericContainer.fromDockerfile(context).build(WEB_HOST_IMAGE, { deleteOnExit: false });
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
  await removeIdleStaleNetworks(client.container.dockerode);
  const networkName = `pi-bg-web-fetch-${process.pid}-${Date.now().toString(36)}`;
  let network;
  try {
    network = await client.network.create({
      Name: networkName,
      Driver: "bridge",
      CheckDuplicate: true,
      IPAM: { Config: [{ Subnet: WEB_HOST_SUBNET }] },
      Labels: { [LABEL]: LABEL_VALUE },
    });
  } catch (error) {
    throw new Error(
      `cannot create the Docker network ${WEB_HOST_SUBNET} for the web host (${error instanceof Error ? error.message : String(error)}); ` +
        `another network may hold that subnet: list with \`docker network ls --filter label=${LABEL}\` and remove stale ones`,
    );
  }
  try {
    const container = await new GenericContainer(WEB_HOST_IMAGE)
      .withNetworkMode(networkName)
      .withLabels({ [LABEL]: LABEL_VALUE })
      .withWaitStrategy(Wait.forSuccessfulCommand("wget -q -O /dev/null http://127.0.0.1/ready.txt"))
      .withStartupTimeout(20_000)
      .start();
    const address = container.getIpAddress(networkName);
    return {
      address,
      stop: async () => {
        await container.stop({ timeout: 0, remove: true });
        await client.network.remove(network);
      },
    };
  } catch (error) {
    await client.network.remove(network).catch(() => undefined);
    throw error;
  }
}

interface NetworkApi {
  listNetworks(options: { filters: string }): Promise<{ Id: string; Containers?: Record<string, unknown> }[]>;
  getNetwork(id: string): { inspect(): Promise<{ Containers?: Record<string, unknown> }>; remove(): Promise<unknown> };
}

/** Removes networks a crashed earlier run of this file left behind, but only those with no container attached. */
async function removeIdleStaleNetworks(docker: NetworkApi): Promise<void> {
  const stale = await docker.listNetworks({ filters: JSON.stringify({ label: [`${LABEL}=${LABEL_VALUE}`] }) });
  for (const entry of stale) {
    const network = docker.getNetwork(entry.Id);
    const info = await network.inspect();
    if (Object.keys(info.Containers ?? {}).length === 0) await network.remove().catch(() => undefined);
  }
}
