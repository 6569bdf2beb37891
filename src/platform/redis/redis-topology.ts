/** Where the service's Redis is: one standalone server, or a Redis Cluster reached through its seed nodes. */
export type RedisTopology = { kind: 'single'; url: string } | { kind: 'cluster'; nodes: readonly string[] };

/** How start-up lines and errors name the topology (no password). */
export function describeTopology(topology: RedisTopology, hidePassword: (url: string) => string = (url) => url): string {
  return topology.kind === 'single' ? hidePassword(topology.url) : `${topology.nodes.join(',')} (Redis Cluster)`;
}

/** `host:port` → the parts ioredis' Cluster takes as a seed node. */
export function clusterSeed(node: string): { host: string; port: number } {
  const at = node.lastIndexOf(':');
  return { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
}
