import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');

describe('the repository', () => {
  it('holds no file with a merge left unresolved (a line of <<<<<<<, ======= or >>>>>>> alone)', () => {
    const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
    const marked = files.filter((file) => {
      let text: string;
      try {
        text = readFileSync(resolve(root, file), 'utf8');
      } catch {
        return false;
      }
      return /^(<{7} .*|={7}|>{7} .*)$/m.test(text);
    });
    expect(marked).toEqual([]);
  });
});
