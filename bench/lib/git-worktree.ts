import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A git ref checked out in a temporary worktree; remove() deletes it (also run when the process exits). */
export type RefTree = { ref: string; commit: string; dir: string; installed: 'shared' | 'npm ci'; remove(): void };

const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The commit of `ref` in the repository at `repo`; throws a readable error for an unknown ref. */
export function resolveCommit(repo: string, ref: string): string {
  try {
    return git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new Error(`"${ref}" is not a commit of this repository`);
  }
}

/** Whether the work tree has changes not committed (they are part of what is measured as "tree"). */
export function isDirty(repo: string): boolean {
  return git(repo, ['status', '--porcelain', '--untracked-files=no']) !== '';
}

/**
 * `git worktree add --detach` of `ref` in a temporary directory. Its node_modules is the work tree's own, by
 * symlink, unless the two package-lock.json differ: then `npm ci` installs the ref's in the temporary tree.
 */
export function checkoutRef(repo: string, ref: string, log: (line: string) => void): RefTree {
  const commit = resolveCommit(repo, ref);
  const parent = mkdtempSync(join(tmpdir(), 'agent-match-compare-'));
  const dir = join(parent, 'tree');
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    process.off('exit', removeOnExit);
    rmSync(parent, { recursive: true, force: true });
    try {
      git(repo, ['worktree', 'prune']);
    } catch {
      // Nothing to prune.
    }
  };
  // A second Ctrl-C or SIGTERM ends the bench with process.exit, and a third can kill it while it cleans up:
  // a process of its own, out of the terminal's process group, removes the tree then.
  const removeOnExit = () => {
    if (removed) return;
    removed = true;
    spawn('/bin/sh', ['-c', 'rm -rf "$0"; git -C "$1" worktree prune', parent, repo], { detached: true, stdio: 'ignore' }).unref();
  };
  process.on('exit', removeOnExit);
  try {
    git(repo, ['worktree', 'add', '--detach', dir, commit]);
    const lock = (root: string) => readFileSync(join(root, 'package-lock.json'), 'utf8');
    let installed: RefTree['installed'] = 'shared';
    if (lock(repo) === lock(dir)) {
      symlinkSync(realpathSync(join(repo, 'node_modules')), join(dir, 'node_modules'), 'dir');
    } else {
      log(`package-lock.json of ${ref} differs from the work tree's: npm ci in the temporary tree…`);
      execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: ['ignore', 2, 2] });
      installed = 'npm ci';
    }
    return { ref, commit, dir, installed, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
