/** The oldest Redis the scripts run on: they declare `#!lua` script flags (7.0) and use 6.2 commands. */
export const MINIMUM_REDIS_VERSION = { major: 7, minor: 0 } as const;

/** One `field:value` line of an `INFO` answer, or undefined when the section does not have it. */
export function infoField(info: string, field: string): string | undefined {
  for (const line of info.split(/\r?\n/)) {
    if (line.startsWith(`${field}:`)) return line.slice(field.length + 1).trim();
  }
  return undefined;
}

/** The version refusal, or undefined when `infoServer` names a version this service runs on (or none it can read). */
function tooOldReason(where: string, infoServer: string): string | undefined {
  const version = infoField(infoServer, 'redis_version');
  const [major, minor] = (version ?? '').split('.').map(Number);
  const { major: needMajor, minor: needMinor } = MINIMUM_REDIS_VERSION;
  if (Number.isInteger(major) && Number.isInteger(minor) && (major! < needMajor || (major === needMajor && minor! < needMinor))) {
    return `Redis at ${where} is ${version}; this service needs Redis ${needMajor}.${needMinor} or later (its scripts use script flags).`;
  }
  return undefined;
}

/**
 * Why the standalone Redis at `url` cannot serve this service, from its `INFO server` and `INFO cluster`
 * answers, or undefined when it can. A version that cannot be read is let through (the scripts' loading then tells).
 */
export function unsupportedRedisReason(url: string, infoServer: string, infoCluster: string): string | undefined {
  const tooOld = tooOldReason(url, infoServer);
  if (tooOld) return tooOld;
  if (infoField(infoCluster, 'cluster_enabled') === '1') {
    return `Redis at ${url} is a Redis Cluster node, given as REDIS_URL: unset REDIS_URL and set REDIS_CLUSTER_NODES to the cluster's seed nodes (host:port,host:port).`;
  }
  return undefined;
}

/** One master of a cluster, as start-up saw it: its address, `INFO server` and `CLUSTER INFO` answers. */
export type ClusterMasterInfo = { address: string; infoServer: string; clusterInfo: string };

/**
 * Why the Redis Cluster reached through `nodes` cannot serve this service, or undefined when it can: every
 * master must run Redis 7.0+ and see the cluster as ok (every slot served).
 */
export function unsupportedClusterReason(nodes: string, masters: readonly ClusterMasterInfo[]): string | undefined {
  if (masters.length === 0)
    return `Redis at ${nodes} has no master serving slots (cluster_state is not ok): finish setting it up (redis-cli --cluster create) before starting this service.`;
  for (const master of masters) {
    const tooOld = tooOldReason(master.address, master.infoServer);
    if (tooOld) return tooOld;
  }
  for (const master of masters) {
    const state = infoField(master.clusterInfo, 'cluster_state') ?? 'unknown';
    if (state !== 'ok')
      return `Redis at ${nodes} is not ok (cluster_state:${state} on ${master.address}): every slot must be served before this service starts.`;
  }
  return undefined;
}
