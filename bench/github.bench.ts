// HTTP requests per commit on the github backend (issue "GitHub backend and the Actions pipeline"): a
// three-file change set committed through `ContentRepo.commit` against the GitHub emulator, reads cached
// (the backend has read the branch once). Every request the backend sends is counted at the emulator, so a
// 304 counts too (GitHub does not charge it to the rate limit, but it is a round trip). The baseline is the
// Git Data API done plainly: three blobs, a tree, a commit and the ref update after reading the ref.
import { createGitHubRepo } from '../operations/repo/github-repo.server.ts';
import { startGitHubEmulator } from '../testing/github-emulator.ts';
import { median, printTable } from './lib.ts';

const skill = (name: string, body: string) => `---\nname: ${name}\ncategory: engineering\n---\n${body}\n`;

export async function benchGitHub(options: { commits?: number } = {}) {
  const commits = options.commits ?? 10;
  const emulator = await startGitHubEmulator({ seedDir: 'content' });
  try {
    // No spacing between writes: the count is what is measured here, not GitHub's one-write-a-second pacing.
    const repo = createGitHubRepo({ token: emulator.token, repository: emulator.repository, apiUrl: emulator.url, writeIntervalMs: 0 });
    const count = async (run: () => Promise<unknown>) => {
      const from = emulator.requests.length;
      const started = performance.now();
      await run();
      return { requests: emulator.requests.length - from, ms: performance.now() - started, what: emulator.requests.slice(from) };
    };
    const firstRead = await count(async () => repo.filesAt(await repo.head('main')));
    const perCommit: number[] = [];
    const perCommitMs: number[] = [];
    let shape = '';
    for (let i = 0; i < commits; i++) {
      const changes = [1, 2, 3].map((k) => ({ path: `content/skills/bench-${k}.md`, content: skill(`Bench ${k}`, `Edit ${i} of file ${k}.`) }));
      const { requests, ms, what } = await count(() => repo.commit('main', changes, `Bench change set ${i}`));
      perCommit.push(requests);
      perCommitMs.push(ms);
      shape = what
        .map((r) => `${r.method} ${r.operation ?? r.path.replace(/^\/repos\/[^/]+\/[^/]+/, '').replace(/[0-9a-f]{40}/, '<sha>')} ${r.status}`)
        .join(', ');
    }
    const reread = await count(async () => {
      await repo.listFiles('main', 'content/skills');
      await repo.readFile('main', 'content/skills/bench-1.md');
    });
    const rows = [
      { measure: 'requests per commit, 3-file change set (median)', value: median(perCommit), goal: '≤ 5' },
      { measure: 'requests per commit (max)', value: Math.max(...perCommit), goal: '≤ 5' },
      { measure: 'one commit’s requests', value: shape, goal: '—' },
      { measure: 'ms per commit on the emulator (median)', value: median(perCommitMs).toFixed(1), goal: '—' },
      { measure: 'first read of the whole tree (requests)', value: firstRead.requests, goal: '—' },
      { measure: 'list + read again after the commits (requests)', value: reread.requests, goal: '0 charged (304s)' },
      { measure: 'baseline: Git Data API plainly (ref, 3 blobs, tree, commit, ref update)', value: 7, goal: '—' },
    ];
    printTable(`GitHub backend on the emulator: HTTP requests per commit over ${commits} three-file change sets (goal ≤ 5, reads cached)`, rows);
    return { median: median(perCommit), max: Math.max(...perCommit), rows };
  } finally {
    await emulator.close();
  }
}
