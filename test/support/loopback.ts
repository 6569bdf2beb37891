let counter = Math.floor(Math.random() * 50_000);

/**
 * A fresh loopback source address each call (127.x.y.z, never 127.0.0.1), for the tests of per-address
 * limits. Only Linux routes all of 127.0.0.0/8 to itself; elsewhere (macOS) binding one fails with
 * EADDRNOTAVAIL, so those tests need Linux.
 */
export function nextLoopbackIp(): string {
  counter = (counter + 1) % 16_000_000;
  const n = counter + 256;
  return `127.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255 || 1}`;
}
