/**
 * Loopback source addresses (127.x.y.z, never 127.0.0.1) handed out one by one, so that each simulated
 * client has an address of its own and the server's real per-address limits apply to each as they would to
 * separate machines. The start is random so that a second run within the limit window uses fresh addresses.
 * Against a non-loopback target no source address is chosen (undefined).
 */
export class LoopbackAddresses {
  private counter: number;

  constructor(
    readonly enabled: boolean,
    start = Math.floor(Math.random() * 8_000_000),
  ) {
    this.counter = start;
  }

  next(): string | undefined {
    if (!this.enabled) return undefined;
    for (;;) {
      this.counter = (this.counter + 1) % 16_000_000;
      const n = this.counter + 512;
      const last = n & 255;
      if (last !== 0 && last !== 255) return `127.${(n >> 16) & 255}.${(n >> 8) & 255}.${last}`;
    }
  }
}
