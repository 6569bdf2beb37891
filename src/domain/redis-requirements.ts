/** The oldest Redis the scripts run on: they declare `#!lua` script flags (7.0) and use 6.2 commands. */
export const MINIMUM_REDIS_VERSION = { major: 7, minor: 0 } as const;

/** One `field:value` line of an `INFO` answer, or undefined when the section does not have it. */
export function infoField(info: string, field: string): string | undefined {
  for (const line of info.split(/\r?\n/)) {
    if (line.startsWith(`${field}:`)) return line.slice(field.length + 1).trim();
  }
  return undefined;
}

/**
 * Why the Redis at `url` cannot serve this service, from its `INFO server` and `INFO cluster` answers,
 * or undefined when it can. A version that cannot be read is let through (the scripts' loading then tells).
 */
export function unsupportedRedisReason(url: string, infoServer: string, infoCluster: string): string | undefined {
  const version = infoField(infoServer, 'redis_version');
  const [major, minor] = (version ?? '').split('.').map(Number);
  const { major: needMajor, minor: needMinor } = MINIMUM_REDIS_VERSION;
  if (Number.isInteger(major) && Number.isInteger(minor) && (major! < needMajor || (major === needMajor && minor! < needMinor))) {
    return `Redis at ${url} is ${version}; this service needs Redis ${needMajor}.${needMinor} or later (its scripts use script flags).`;
  }
  if (infoField(infoCluster, 'cluster_enabled') === '1') {
    return `Redis at ${url} is a Redis Cluster node; this service does not run on Redis Cluster yet: set REDIS_URL to a standalone Redis ${needMajor}.${needMinor}+ (or unset it to use an embedded redis-server).`;
  }
  return undefined;
}

/** What start-up says while REDIS_CLUSTER_NODES is reserved. */
export const CLUSTER_NODES_NOT_SUPPORTED =
  'REDIS_CLUSTER_NODES is set, but this service does not run on Redis Cluster yet: unset it and set REDIS_URL to a standalone Redis 7.0+ (or leave both unset to use an embedded redis-server).';
