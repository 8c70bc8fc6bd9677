import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import type Dockerode from "dockerode";
import { TASK_IMAGE } from "./task-image.test-support.ts";

/** A second Docker engine, as a remote one is reached: `DOCKER_HOST=tcp://…` with mutual TLS. */
export interface RemoteEngine {
  /** What a client (the product, a Pi child) needs in its environment to reach it. */
  readonly env: { readonly DOCKER_HOST: string; readonly DOCKER_TLS_VERIFY: "1"; readonly DOCKER_CERT_PATH: string };
  readonly docker: Dockerode;
  stop(): Promise<void>;
}

/**
 * Starts a second `dockerd` of this machine on a loopback port with TLS client verification (a CA, a server
 * certificate for 127.0.0.1 and a client certificate made here with openssl), its own data and exec roots, its
 * own bridge and no iptables rules, and gives it the task image from the local engine (`docker save` → `load`).
 * Needs root (and iproute2's `ip`), as the local engine does.
 */
export async function startRemoteEngine(): Promise<RemoteEngine> {
  const root = mkdtempSync("/tmp/re-");
  const certs = join(root, "certs");
  execFileSync("mkdir", ["-p", certs]);
  makeCertificates(certs);
  const port = await freePort();
  // A bridge of its own: with `--bridge none` dockerd deletes the machine's docker0, the local engine's.
  const bridge = `pi-re-${port}`;
  execFileSync("ip", ["link", "add", "name", bridge, "type", "bridge"]);
  execFileSync("ip", ["addr", "add", bridgeAddress(port), "dev", bridge]);
  const daemon = spawn(
    "dockerd",
    [
      ...["--data-root", join(root, "data"), "--exec-root", join(root, "x"), "--pidfile", join(root, "d.pid")],
      ...["-H", `tcp://127.0.0.1:${port}`, "--tlsverify", "--tlscacert", join(certs, "ca.pem")],
      ...["--tlscert", join(certs, "server-cert.pem"), "--tlskey", join(certs, "server-key.pem")],
      ...["--bridge", bridge, "--iptables=false", "--ip6tables=false", "--storage-driver", "vfs"],
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let log = "";
  daemon.stderr?.on("data", (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4_000);
  });
  const { default: Docker } = await import("dockerode");
  const docker = new Docker({
    protocol: "https",
    host: "127.0.0.1",
    port,
    ca: readFileSync(join(certs, "ca.pem")),
    cert: readFileSync(join(certs, "cert.pem")),
    key: readFileSync(join(certs, "key.pem")),
  });
  const stop = () => stopDaemon(daemon, root, bridge);
  try {
    await answering(docker, daemon, () => log);
    const image = await new Docker().getImage(TASK_IMAGE).get();
    const loading = await docker.loadImage(image);
    loading.resume();
    await new Promise((resolve, reject) => loading.on("end", resolve).on("error", reject));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    env: { DOCKER_HOST: `tcp://127.0.0.1:${port}`, DOCKER_TLS_VERIFY: "1", DOCKER_CERT_PATH: certs },
    docker,
    stop,
  };
}

function makeCertificates(dir: string): void {
  const ssl = (args: string) => execFileSync("openssl", args.split(" "), { cwd: dir, stdio: "ignore" });
  ssl("req -x509 -newkey rsa:2048 -nodes -keyout ca-key.pem -out ca.pem -days 2 -subj /CN=test-ca");
  const signed = [
    { key: "server-key.pem", cert: "server-cert.pem", cn: "127.0.0.1", ext: "subjectAltName=IP:127.0.0.1" },
    { key: "key.pem", cert: "cert.pem", cn: "client", ext: "extendedKeyUsage=clientAuth" },
  ];
  for (const { key, cert, cn, ext } of signed) {
    writeFileSync(join(dir, `${cert}.ext`), `${ext}\n`);
    ssl(`req -newkey rsa:2048 -nodes -keyout ${key} -out ${cert}.csr -subj /CN=${cn}`);
    ssl(
      `x509 -req -in ${cert}.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -out ${cert} -days 2 -extfile ${cert}.ext`,
    );
  }
}

/**
 * A /30 of the benchmarking range 198.18.0.0/15 (never a private one) chosen by the port, so engines started at
 * once (one per test file and lane) never share a subnet: 32,768 blocks, and ephemeral ports are 32768–60999.
 */
function bridgeAddress(port: number): string {
  const host = ((port % 32_768) * 4 + 1) >>> 0;
  return `198.${18 + (host >> 16)}.${(host >> 8) & 255}.${host & 255}/30`;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function answering(docker: Dockerode, daemon: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 120; i++) {
    if (daemon.exitCode !== null) break;
    if (
      await docker.ping().then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the second dockerd did not answer on loopback:\n${log()}`);
}

async function stopDaemon(daemon: ChildProcess, root: string, bridge: string): Promise<void> {
  if (daemon.exitCode === null) {
    const ended = new Promise((resolve) => daemon.once("exit", resolve));
    daemon.kill("SIGTERM");
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    if (daemon.exitCode === null) daemon.kill("SIGKILL");
  }
  rmSync(root, { recursive: true, force: true });
  execFileSync("ip", ["link", "del", bridge]);
}
