import { execFileSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';

const HAS_PROC = (() => {
  try {
    readlinkSync('/proc/self/cwd');
    return true;
  } catch {
    return false;
  }
})();

/**
 * Who a pid is: its start time (so a pid reused by another process after a crash or reboot does not
 * match), or undefined when no such process runs.
 */
export function processIdentity(pid: number): string | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  if (HAS_PROC) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Field 22 (starttime); the command name in field 2 may hold spaces, so count from its ")".
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return fields[0] === 'Z' ? undefined : fields[19];
    } catch {
      return undefined;
    }
  }
  try {
    return execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** True while the process that had `identity` (from processIdentity) still runs. */
export function isRunning(pid: number | undefined, identity: string | undefined): boolean {
  return pid !== undefined && identity !== undefined && processIdentity(pid) === identity;
}

/** Waits until the process is gone; false if it still runs after `ms`. */
export async function waitForExit(pid: number, identity: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isRunning(pid, identity)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
