import { describe, expect, it } from 'vitest';
import { nextLoopbackIp } from './loopback.js';

describe('nextLoopbackIp', () => {
  it('never hands out the same address twice in a row of 100,000, nor one of 127.0.0.0/24, nor a .0 or .255', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) {
      const ip = nextLoopbackIp();
      expect(seen.has(ip), ip).toBe(false);
      seen.add(ip);
      const [a, b, c, d] = ip.split('.').map(Number);
      expect(a).toBe(127);
      expect(b === 0 && c === 0, ip).toBe(false);
      expect(d! >= 1 && d! <= 254, ip).toBe(true);
    }
  });
});
