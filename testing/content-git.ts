// Test support: look at (and tamper with) the service's content repository from outside, with plain git,
// the way an operator or an outside push would. Nothing here goes through the service's own code.
import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

export interface OutsideChange {
  path: string;
  /** File text, or for a symlink (mode 120000) its target. Absent with `delete`. */
  content?: string;
  mode?: '100644' | '100755' | '120000';
  delete?: true;
}

export function contentGit(dataDir: string) {
  const gitDir = join(dataDir, 'content.git');
  const env = {
    ...process.env,
    GIT_DIR: gitDir,
    GIT_AUTHOR_NAME: 'Outsider',
    GIT_AUTHOR_EMAIL: 'o@example.test',
    GIT_COMMITTER_NAME: 'Outsider',
    GIT_COMMITTER_EMAIL: 'o@example.test',
  };

  function git(args: string[], options: { input?: string; env?: Record<string, string> } = {}): string {
    return execFileSync('git', args, { env: { ...env, ...options.env }, input: options.input, maxBuffer: 64 * 1024 * 1024 })
      .toString('utf8')
      .trim();
  }

  return {
    gitDir,
    git,
    head: (branch = 'main') => git(['rev-parse', `refs/heads/${branch}`]),
    /** The file's text at a revision, or undefined when it does not exist there. */
    show(rev: string, path: string): string | undefined {
      const r = spawnSync('git', ['cat-file', 'blob', `${rev}:${path}`], { env });
      return r.status === 0 ? r.stdout.toString('utf8') : undefined;
    },
    blobSha: (rev: string, path: string) => git(['rev-parse', `${rev}:${path}`]),
    /** Every path of the tree at `rev`. */
    paths: (rev: string) => git(['ls-tree', '-r', '--name-only', '--full-tree', rev]).split('\n').filter(Boolean),
    parents: (commit: string) => git(['rev-list', '--parents', '-n', '1', commit]).split(' ').slice(1),
    /** `A path`, `M path`, `D path` lines of what a commit changed against its first parent. */
    changes: (commit: string) =>
      git(['diff-tree', '-r', '--no-commit-id', '--name-status', '--root', commit])
        .split('\n')
        .filter(Boolean)
        .map((l) => l.replace('\t', ' '))
        .sort(),
    /** Every commit of `range` (newest first) with its parents, subject and `A|M|D path` changes, in one git call. */
    log(range: string): Array<{ sha: string; parents: string[]; subject: string; changes: string[] }> {
      const out = git(['log', '--format=%x1e%H %P%x1f%s', '--name-status', '--no-renames', range]);
      return out
        .split('\x1e')
        .filter(Boolean)
        .map((block) => {
          const [head, ...rest] = block.split('\n');
          const [shas, subject] = head!.split('\x1f');
          const [sha, ...parents] = shas!.trim().split(' ').filter(Boolean);
          return {
            sha: sha!,
            parents,
            subject: subject!,
            changes: rest
              .filter(Boolean)
              .map((l) => l.replace('\t', ' '))
              .sort(),
          };
        });
    },
    /** The text of many files at a revision in one git call (undefined where missing). */
    showMany(rev: string, paths: string[]): Array<string | undefined> {
      const r = spawnSync('git', ['cat-file', '--batch'], { env, input: paths.map((p) => `${rev}:${p}`).join('\n') + '\n', maxBuffer: 64 * 1024 * 1024 });
      const out = r.stdout;
      const texts: Array<string | undefined> = [];
      let offset = 0;
      for (let i = 0; i < paths.length; i++) {
        const end = out.indexOf(0x0a, offset);
        const header = out.subarray(offset, end).toString('utf8');
        if (header.endsWith(' missing')) {
          texts.push(undefined);
          offset = end + 1;
          continue;
        }
        const size = Number(header.split(' ')[2]);
        texts.push(out.subarray(end + 1, end + 1 + size).toString('utf8'));
        offset = end + 1 + size + 1;
      }
      return texts;
    },
    isAncestor: (a: string, b: string) => spawnSync('git', ['merge-base', '--is-ancestor', a, b], { env }).status === 0,
    count: (range: string) => Number(git(['rev-list', '--count', range])),
    /** `git fsck --strict --full`; returns its output and exit status (0 = clean; dangling objects are fine). */
    fsck(): { status: number; output: string } {
      const r = spawnSync('git', ['fsck', '--strict', '--full', '--no-progress'], { env });
      return { status: r.status ?? -1, output: (r.stdout.toString() + r.stderr.toString()).trim() };
    },
    /** Commits `changes` on top of `branch` with plumbing (a private index), as an outside push would. */
    commitOutside(branch: string, changes: OutsideChange[], message = 'outside change'): string {
      const parent = git(['rev-parse', `refs/heads/${branch}`]);
      const index = join(gitDir, `test-index-${process.pid}-${Math.random().toString(36).slice(2)}`);
      const indexEnv = { GIT_INDEX_FILE: index };
      try {
        git(['read-tree', parent], { env: indexEnv });
        for (const change of changes) {
          if (change.delete) {
            git(['update-index', '--index-info'], { env: indexEnv, input: `0 ${'0'.repeat(40)}\t${change.path}\n` });
            continue;
          }
          const blob = git(['hash-object', '-w', '--stdin'], { input: change.content ?? '' });
          git(['update-index', '--add', '--cacheinfo', `${change.mode ?? '100644'},${blob},${change.path}`], { env: indexEnv });
        }
        const tree = git(['write-tree'], { env: indexEnv });
        const commit = git(['commit-tree', tree, '-p', parent, '-m', message]);
        git(['update-ref', `refs/heads/${branch}`, commit, parent]);
        return commit;
      } finally {
        rmSync(index, { force: true });
      }
    },
  };
}

export type ContentGit = ReturnType<typeof contentGit>;

/** A valid skill file (skills are the smallest content kind: a name, a category and a body). */
export function skillFile(name: string, body = `${name} is a test skill.`): string {
  return `---\nname: ${name}\ncategory: engineering\n---\n${body}\n`;
}

/** A valid project entry naming existing skills. */
export function projectFile(title: string, options: { skills?: string[]; start?: string; summary?: string } = {}): string {
  return [
    '---',
    `title: ${JSON.stringify(title)}`,
    'organisation: Test Org',
    `start: "${options.start ?? '2020-01'}"`,
    'end: "2020-06"',
    `summary: ${JSON.stringify(options.summary ?? `${title}, a project written by a test.`)}`,
    'keyResult: It worked.',
    'tags: [engineering]',
    'lenses: [engineering-manager]',
    `skills: [${(options.skills ?? ['python']).join(', ')}]`,
    'contributions:',
    '  - Wrote the test.',
    'whyItMatters: Tests keep the data safe.',
    '---',
    `${title} is the body of a test project.`,
    '',
  ].join('\n');
}
