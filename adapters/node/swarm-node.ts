import type Dockerode from "dockerode";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import { engineProblem } from "./docker-calls.ts";

/** The internal overlay network a Swarm job without a network joins: an address, no route out. */
export const NO_EGRESS_NETWORK = "pi-bg-no-egress";

/** This engine's swarm node, when the engine is a manager of an active swarm; else what to do. */
export async function swarmNode(docker: Dockerode): Promise<Result<string, string>> {
  let info: { Swarm?: { LocalNodeState?: string; ControlAvailable?: boolean; NodeID?: string } };
  try {
    info = await docker.info();
  } catch (error) {
    return err(`the engine could not say whether it is in a swarm: ${engineProblem(error)}`);
  }
  const swarm = info.Swarm;
  if (swarm?.LocalNodeState !== "active" || swarm.NodeID === undefined || swarm.NodeID === "")
    return err(
      'this Docker engine is not in a swarm: run `docker swarm init` (with `--default-addr-pool` set to a range of your own), or use runOn "docker"',
    );
  if (swarm.ControlAvailable !== true)
    return err("this Docker engine is a swarm worker: jobs are created on a manager; run Pi where a manager runs");
  return ok(swarm.NodeID);
}

/**
 * The id of the internal overlay network for jobs without a network, created on first use with a subnet from
 * the swarm's own address pool (an internal network has no gateway out, and no docker_gwbridge is attached).
 */
export async function noEgressNetwork(docker: Dockerode, name = NO_EGRESS_NETWORK): Promise<Result<string, string>> {
  try {
    const found = await docker.listNetworks({ filters: { name: [name] } });
    const existing = found.find((n) => n.Name === name);
    // One made by someone else under this name may have a route out: it is never joined.
    if (existing !== undefined)
      return existing.Internal === true && existing.Driver === "overlay"
        ? ok(existing.Id)
        : err(
            `a network named ${name} exists but is not an internal overlay network (it could reach out): remove it (\`docker network rm ${name}\`) and the next task makes its own`,
          );
    const created = await docker.createNetwork({
      Name: name,
      Driver: "overlay",
      Internal: true,
      Labels: { "pi-background-tasks.network": "no-egress" },
    });
    return ok(created.id);
  } catch (error) {
    return err(`the swarm network without egress could not be made: ${engineProblem(error)}`);
  }
}
