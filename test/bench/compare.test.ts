import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../bench/lib/children.js';
import { parseCli } from '../../bench/lib/cli.js';
import { phaseFigures } from '../../bench/lib/compare-phases.js';
import { compareRows, renderCompare, turnOrder, type CompareSample } from '../../bench/lib/compare-table.js';
import { checkoutRef, resolveCommit } from '../../bench/lib/git-worktree.js';

describe('bench: --compare', () => {
  it('measures the ref and the work tree in turns, ref first in every round', () => {
    expect(turnOrder(3).map((t) => `${t.side}${t.round}`)).toEqual(['ref1', 'tree1', 'ref2', 'tree2', 'ref3', 'tree3']);
  });

  it('gives each figure its rounds, the medians of both sides and tree / ref', () => {
    const samples: CompareSample[] = [
      { side: 'ref', round: 1, figures: { pass_req_s: 100, pass_failures: 0 } },
      { side: 'tree', round: 1, figures: { pass_req_s: 100, pass_failures: 0 } },
      { side: 'ref', round: 2, figures: { pass_req_s: 300, pass_failures: 0 } },
      { side: 'tree', round: 2, figures: { pass_req_s: 100, pass_failures: 1 } },
    ];
    const [pass, failures] = compareRows(samples);
    expect(pass).toMatchObject({ figure: 'pass_req_s', ref: [100, 300], tree: [100, 100], refMedian: 200, treeMedian: 100, ratio: 0.5 });
    expect(failures).toMatchObject({ figure: 'pass_failures', ratio: undefined });
    const table = renderCompare({
      ref: 'main',
      refCommit: 'a'.repeat(40),
      treeCommit: 'b'.repeat(40),
      treeDirty: false,
      installed: 'shared',
      rounds: 2,
      samples,
      rows: [pass!, failures!],
      notes: [],
    });
    expect(table).toMatch(/pass_req_s\s+200\s+100\s+0\.50\s+100 300\s+100 100/);
  });

  it('reads CPU per request, throughput, p50, p99 and failures from a phase', () => {
    const figures = phaseFigures(
      'feed',
      {
        name: 'feed',
        description: '',
        operations: {
          'GET feed': {
            count: 1000,
            throughput: 500,
            latency: { count: 1000, mean: 2, p50: 1, p95: 3, p99: 4, p999: 5, max: 6 },
            outcomes: { '200': 998, '503': 2 },
            timeline: [],
            buckets: [],
          },
        },
        window: { seconds: 2, cpu: { server: 50 }, serverRoutes: {}, samples: [] },
      },
      'GET feed',
    );
    expect(figures).toEqual({ feed_req_s: 500, feed_p50_ms: 1, feed_p99_ms: 4, feed_server_cpu_us: 1000, feed_failures: 2 });
  });

  it('takes a ref and rounds, and refuses what it cannot combine with', () => {
    expect(parseCli(['--compare', 'main'], ['swipes'], ['swipes'])).toMatchObject({ compare: 'main', compareRounds: 3 });
    expect(() => parseCli(['--compare', 'main', '--compare-rounds', '1'], ['swipes'], ['swipes'])).toThrow(/compare-rounds/);
    expect(() => parseCli(['--compare', 'main', '--url', 'http://127.0.0.1:1'], ['swipes'], ['swipes'])).toThrow(/--url/);
    expect(() => parseCli(['--compare', 'main', 'swipes'], ['swipes'], ['swipes'])).toThrow(/no scenario/);
  });

  it('takes --replica-ack alone: the work tree against itself', () => {
    expect(parseCli(['--replica-ack'], ['swipes'], ['swipes'])).toMatchObject({ replicaAck: true, compareRounds: 3 });
    expect(() => parseCli(['--replica-ack', '--compare', 'main'], ['swipes'], ['swipes'])).toThrow(/--compare/);
    expect(() => parseCli(['--replica-ack', '--cluster'], ['swipes'], ['swipes'])).toThrow(/--cluster/);
  });

  it('checks the ref out in a temporary worktree sharing node_modules, and removes it without a trace', () => {
    const registered = () => execFileSync('git', ['worktree', 'list', '--porcelain'], { cwd: REPO_ROOT, encoding: 'utf8' });
    const tree = checkoutRef(REPO_ROOT, 'HEAD', () => {});
    try {
      expect(tree.commit).toBe(resolveCommit(REPO_ROOT, 'HEAD'));
      expect(tree.installed).toBe('shared');
      expect(lstatSync(join(tree.dir, 'node_modules')).isSymbolicLink()).toBe(true);
      expect(readFileSync(join(tree.dir, 'bench/main.ts'), 'utf8')).toContain('runMain');
      expect(registered()).toContain(tree.dir);
    } finally {
      tree.remove();
    }
    expect(existsSync(tree.dir)).toBe(false);
    expect(registered()).not.toContain(tree.dir);
    expect(() => checkoutRef(REPO_ROOT, 'no-such-ref-anywhere', () => {})).toThrow(/not a commit/);
  });
});
