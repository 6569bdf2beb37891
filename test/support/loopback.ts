let counter = Math.floor(Math.random() * 50_000);

/** Source addresses per /24 block: 127.x.y.1 to 127.x.y.254. */
const PER_BLOCK = 254;
/** Blocks 127.0.1.0/24 to 127.251.x.0/24: never 127.0.0.x, where 127.0.0.1 is every other client. */
const BLOCKS = 250 * 256;

/**
 * A fresh loopback source address each call (127.x.y.z, never in 127.0.0.0/24), distinct from the previous
 * 16 million calls of this process, for the tests of per-address limits. Only Linux routes all of
 * 127.0.0.0/8 to itself; elsewhere (macOS) binding one fails with EADDRNOTAVAIL, so those tests need Linux.
 */
export function nextLoopbackIp(): string {
  counter = (counter + 1) % (PER_BLOCK * BLOCKS);
  const block = Math.floor(counter / PER_BLOCK) + 256;
  return `127.${(block >> 8) & 255}.${block & 255}.${(counter % PER_BLOCK) + 1}`;
}
