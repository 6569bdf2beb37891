import { describe, expect, it } from 'vitest';
import { nextLoopbackIp } from './loopback.js';

describe('nextLoopbackIp', () => {
  it('never hands out the same address twice in a row of 100,000, nor one of 127.0.0.0/24, nor a .0 or .255', () => {
    // Checked in plain code and asserted once: 500,000 assertions take seconds, and far longer on a busy machine.
    const seen = new Set<string>();
    const wrong: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const ip = nextLoopbackIp();
      const [a, b, c, d] = ip.split('.').map(Number);
      if (seen.has(ip) || a !== 127 || (b === 0 && c === 0) || !(d! >= 1 && d! <= 254)) wrong.push(ip);
      seen.add(ip);
    }
    expect(wrong).toEqual([]);
    expect(seen.size).toBe(100_000);
  });
});
