import type { Recorder } from './recorder.js';
import { formatCount, formatMs } from './format.js';

/** Progress lines on stderr while the bench runs; a live line on a terminal, a line every 5 s otherwise. */
export class Progress {
  private readonly tty = Boolean(process.stderr.isTTY);
  private live = false;
  private lastPrinted = 0;
  private readonly started = performance.now();

  section(title: string) {
    this.endLive();
    process.stderr.write(`\n== ${title}\n`);
  }

  info(message: string) {
    this.endLive();
    process.stderr.write(`   ${this.clock()} ${message}\n`);
  }

  /** One status line for a running load: rate, latency and failures so far. */
  tick(label: string, recorder: Recorder, elapsedMs: number, totalMs: number, extra = '') {
    const seconds = Math.max(elapsedMs / 1000, 0.001);
    const parts = recorder.tags.map((tag) => {
      const h = recorder.histogram(tag);
      return `${tag}: ${formatCount(h.count / seconds)}/s p99 ${formatMs(h.percentile(99))}`;
    });
    const failures = recorder.failures();
    const line = `   ${this.clock()} [${label}] ${(Math.min(elapsedMs, totalMs) / 1000) | 0}s/${(totalMs / 1000) | 0}s  ${parts.join('  ')}${failures ? `  failures ${failures}` : ''}${extra ? `  ${extra}` : ''}`;
    if (this.tty) {
      process.stderr.write(`\r\x1b[K${line.slice(0, (process.stderr.columns || 160) - 1)}`);
      this.live = true;
    } else if (performance.now() - this.lastPrinted >= 5_000) {
      this.lastPrinted = performance.now();
      process.stderr.write(`${line}\n`);
    }
  }

  endLive() {
    if (this.live) process.stderr.write('\n');
    this.live = false;
  }

  private clock(): string {
    const s = Math.floor((performance.now() - this.started) / 1000);
    return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  }
}
