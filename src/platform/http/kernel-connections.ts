import { existsSync, readFileSync } from 'node:fs';

const TABLES = ['/proc/net/tcp', '/proc/net/tcp6'];
/** TCP states in which the socket still holds a descriptor of ours: ESTABLISHED, CLOSE_WAIT. */
const OPEN_STATES = new Set(['01', '08']);

/** Whether the kernel's connection tables can be read here (Linux). */
export const kernelConnectionsReadable = (): boolean => existsSync(TABLES[0]!);

/**
 * The open TCP connections to a local port, counted per peer address (keyed by `addressKey`), as the
 * kernel lists them in /proc/net/tcp and /proc/net/tcp6. Undefined when the tables cannot be read.
 */
export function connectionsByPeer(localPort: number): Map<string, number> | undefined {
  const portSuffix = `:${localPort.toString(16).toUpperCase().padStart(4, '0')}`;
  const counts = new Map<string, number>();
  let readAny = false;
  for (const table of TABLES) {
    let text: string;
    try {
      text = readFileSync(table, 'latin1');
    } catch {
      continue;
    }
    readAny = true;
    for (const line of text.split('\n')) {
      // "  sl: local_address rem_address st ...": fields 1, 2 and 3.
      const fields = line.trim().split(/\s+/, 4);
      if (fields.length < 4 || !fields[1]!.endsWith(portSuffix) || !OPEN_STATES.has(fields[3]!)) continue;
      const remote = fields[2]!;
      const key = addressKey(kernelAddressBytes(remote.slice(0, remote.indexOf(':'))));
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return readAny ? counts : undefined;
}

/** The kernel writes an address as 32-bit words in host (little-endian) byte order. */
function kernelAddressBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let word = 0; word < hex.length / 8; word++) {
    for (let i = 0; i < 4; i++) bytes[word * 4 + i] = parseInt(hex.slice(word * 8 + (3 - i) * 2, word * 8 + (3 - i) * 2 + 2), 16);
  }
  return bytes;
}

/** One spelling per peer address, whichever the source: dotted IPv4 (IPv4-mapped IPv6 included), else full IPv6 groups. */
export function addressKey(bytes: Uint8Array): string {
  if (bytes.length === 4) return bytes.join('.');
  if (bytes.length === 16 && bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return bytes.subarray(12).join('.');
  }
  const groups: string[] = [];
  for (let i = 0; i + 1 < bytes.length; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return groups.join(':');
}
