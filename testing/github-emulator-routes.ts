// Test support: the GitHub emulator's REST endpoints, the subset of GitHub's the `github` repository backend (and
// a client of the Git Data API) calls: the repository, the Git Data API (blobs, trees, commits, refs), the commits
// and compare APIs, and the merges API. Each answers what git itself says about the bare repository.
import type { RouteContext } from './github-emulator-types.ts';
import { HttpError, SHA, type BuiltinRoute, type EmulatorState } from './github-emulator-types.ts';
import {
  apiRefUpdate,
  casRef,
  commitJson,
  hashBlob,
  head,
  makeCommit,
  objectType,
  parseNameStatus,
  resolveCommitish,
  restCommit,
  text,
  treeEntries,
  tryText,
  writeTree,
} from './github-emulator-git.ts';

type On = (method: string, path: string, handler: (c: RouteContext) => Promise<void> | void) => void;

/** The built-in endpoints, in the order they are tried; writes are every method but GET. */
export function builtinRoutes(s: EmulatorState): BuiltinRoute[] {
  const routes: BuiltinRoute[] = [];
  const on: On = (method, path, handler) =>
    routes.push({ method, pattern: new RegExp(`^${s.repoPrefix.replace(/[.]/g, '\\.')}${path}$`), handler, write: method !== 'GET' });
  gitDataRoutes(s, on);
  refRoutes(s, on);
  historyRoutes(s, on);
  return routes;
}

/** The repository itself, and the Git Data API's reads and object writes. */
function gitDataRoutes(s: EmulatorState, on: On) {
  on('GET', '', ({ send }) =>
    send(200, {
      full_name: s.repository,
      name: s.name,
      owner: { login: s.owner },
      default_branch: 'main',
      private: true,
      permissions: { admin: false, maintain: false, push: !s.faults.readOnly, triage: false, pull: true },
    }),
  );

  on('GET', '/git/ref/heads/(.+)', async ({ match, send }) => {
    const sha = await head(s, match[1]!);
    if (!sha) throw new HttpError(404, 'Not Found');
    send(200, { ref: `refs/heads/${match[1]}`, object: { sha, type: 'commit', url: `${s.base}${s.repoPrefix}/git/commits/${sha}` } });
  });

  on('GET', '/branches/(.+)', async ({ match, send }) => {
    const sha = await head(s, match[1]!);
    if (!sha) throw new HttpError(404, 'Branch not found');
    send(200, { name: match[1], commit: await restCommit(s, sha, false), protected: false });
  });

  on('GET', '/git/trees/([0-9a-zA-Z._/-]+)', async ({ match, url, send }) => {
    const ref = match[1]!;
    const sha = SHA.test(ref) ? ref : await resolveCommitish(s, ref);
    const type = sha ? await objectType(s, sha) : null;
    if (!sha || (type !== 'tree' && type !== 'commit')) throw new HttpError(404, 'Not Found');
    const treeSha = type === 'tree' ? sha : await text(s, ['rev-parse', `${sha}^{tree}`]);
    const recursive = url.searchParams.has('recursive') && url.searchParams.get('recursive') !== '0' && url.searchParams.get('recursive') !== 'false';
    send(200, { sha: treeSha, url: `${s.base}${s.repoPrefix}/git/trees/${treeSha}`, tree: await treeEntries(s, treeSha, recursive), truncated: false });
  });

  on('GET', '/git/blobs/([0-9a-f]{40})', async ({ match, send }) => {
    const sha = match[1]!;
    if ((await objectType(s, sha)) !== 'blob') throw new HttpError(404, 'Not Found');
    const content = (await s.git.run(['cat-file', 'blob', sha])).stdout;
    send(200, {
      sha,
      node_id: '',
      size: content.length,
      url: `${s.base}${s.repoPrefix}/git/blobs/${sha}`,
      content: content.toString('base64'),
      encoding: 'base64',
    });
  });

  on('GET', '/git/commits/([0-9a-f]{40})', async ({ match, send }) => {
    if ((await objectType(s, match[1]!)) !== 'commit') throw new HttpError(404, 'Not Found');
    send(200, await commitJson(s, match[1]!));
  });

  on('POST', '/git/blobs', async ({ body, send }) => {
    if (typeof body?.content !== 'string') throw new HttpError(422, 'Invalid request: content is required');
    const content = Buffer.from(body.content, body.encoding === 'base64' ? 'base64' : 'utf8');
    const sha = await hashBlob(s, content);
    send(201, { sha, url: `${s.base}${s.repoPrefix}/git/blobs/${sha}` });
  });

  on('POST', '/git/trees', async ({ body, send }) => {
    if (!Array.isArray(body?.tree)) throw new HttpError(422, 'Invalid request: tree is required');
    let baseTree: string | null = null;
    if (body.base_tree) {
      baseTree = SHA.test(body.base_tree) && (await objectType(s, body.base_tree)) === 'tree' ? body.base_tree : null;
      if (!baseTree) throw new HttpError(422, 'Invalid request: base_tree is not a tree');
    }
    const entries: Array<{ path: string; mode: string; sha: string | null }> = [];
    for (const e of body.tree as Array<{ path: string; mode: string; type?: string; sha?: string | null; content?: string }>) {
      if (typeof e.path !== 'string' || !/^(100644|100755|040000|160000|120000)$/.test(e.mode))
        throw new HttpError(422, `Invalid tree entry ${JSON.stringify(e.path)}`);
      if (e.content !== undefined) entries.push({ path: e.path, mode: e.mode, sha: await hashBlob(s, Buffer.from(e.content, 'utf8')) });
      else if (e.sha === null) entries.push({ path: e.path, mode: e.mode, sha: null });
      else if (typeof e.sha === 'string' && SHA.test(e.sha) && (await objectType(s, e.sha))) entries.push({ path: e.path, mode: e.mode, sha: e.sha });
      else throw new HttpError(422, `Invalid tree entry ${e.path}: sha not found`);
    }
    const sha = await writeTree(s, baseTree, entries);
    send(201, { sha, url: `${s.base}${s.repoPrefix}/git/trees/${sha}`, tree: await treeEntries(s, sha, false), truncated: false });
  });

  on('POST', '/git/commits', async ({ body, send }) => {
    if (typeof body?.message !== 'string' || typeof body?.tree !== 'string') throw new HttpError(422, 'Invalid request: message and tree are required');
    if ((await objectType(s, body.tree)) !== 'tree') throw new HttpError(422, 'Invalid request: tree is not a tree');
    const parents: string[] = body.parents ?? [];
    for (const p of parents)
      if (!SHA.test(p) || (await objectType(s, p)) !== 'commit') throw new HttpError(422, `Invalid request: parent ${p} is not a commit`);
    const sha = await makeCommit(s, body.tree, parents, body.message, body.author);
    send(201, await commitJson(s, sha));
  });
}

/** The Git Data API's refs: made, moved (a fast-forward unless forced), deleted. */
function refRoutes(s: EmulatorState, on: On) {
  on('POST', '/git/refs', async ({ body, send }) => {
    const ref = String(body?.ref ?? '');
    const branch = /^refs\/heads\/(.+)$/.exec(ref)?.[1];
    if (!branch || !SHA.test(String(body?.sha)) || (await objectType(s, body.sha)) !== 'commit') throw new HttpError(422, 'Invalid request: ref or sha');
    if (!(await apiRefUpdate(s, branch, body.sha, null))) throw new HttpError(422, 'Reference already exists');
    send(201, { ref, object: { sha: body.sha, type: 'commit' } });
  });

  on('PATCH', '/git/refs/heads/(.+)', async ({ match, body, send }) => {
    const branch = match[1]!;
    const next = String(body?.sha ?? '');
    if (!SHA.test(next) || (await objectType(s, next)) !== 'commit') throw new HttpError(422, 'Object does not exist');
    const current = await head(s, branch);
    if (!current) throw new HttpError(422, 'Reference does not exist');
    if (!body.force && current !== next) {
      const ff = (await s.git.run(['merge-base', '--is-ancestor', current, next], { okCodes: [1] })).code === 0;
      if (!ff) throw new HttpError(422, 'Update is not a fast forward');
    }
    // Compare-and-swap against what was checked: a push in between makes this a non-fast-forward too.
    if (current !== next && !(await apiRefUpdate(s, branch, next, current))) throw new HttpError(422, 'Update is not a fast forward');
    send(200, { ref: `refs/heads/${branch}`, object: { sha: next, type: 'commit' } });
  });

  on('DELETE', '/git/refs/heads/(.+)', async ({ match, res }) => {
    const current = await head(s, match[1]!);
    if (!current) throw new HttpError(422, 'Reference does not exist');
    await casRef(s, match[1]!, null, current, 'api');
    res.writeHead(204).end();
  });
}

/** The commits and compare APIs, and the merges API. */
function historyRoutes(s: EmulatorState, on: On) {
  on('GET', '/commits', async ({ url, send }) => {
    const start = url.searchParams.get('sha') ?? 'main';
    const sha = await resolveCommitish(s, start);
    if (!sha) throw new HttpError(404, `No commit found for SHA: ${start}`);
    const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') ?? 30)));
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
    const path = url.searchParams.get('path');
    const out = await text(s, ['log', '--format=%H', `--skip=${(page - 1) * perPage}`, `--max-count=${perPage + 1}`, sha, ...(path ? ['--', path] : [])]);
    const shas = out.split('\n').filter(Boolean);
    const pageShas = shas.slice(0, perPage);
    const headers: Record<string, string> = {};
    if (shas.length > perPage) {
      const next = new URL(url);
      next.searchParams.set('page', String(page + 1));
      headers.Link = `<${s.base}${next.pathname}${next.search}>; rel="next"`;
    }
    send(200, await Promise.all(pageShas.map((sha) => restCommit(s, sha, false))), headers);
  });

  on('GET', '/commits/([^/]+)', async ({ match, send }) => {
    const sha = await resolveCommitish(s, decodeURIComponent(match[1]!));
    if (!sha) throw new HttpError(422, `No commit found for SHA: ${match[1]}`);
    send(200, await restCommit(s, sha, true));
  });

  on('GET', '/compare/(.+)\\.\\.\\.(.+)', async ({ match, send }) => {
    const [from, to] = await Promise.all([resolveCommitish(s, decodeURIComponent(match[1]!)), resolveCommitish(s, decodeURIComponent(match[2]!))]);
    if (!from || !to) throw new HttpError(404, 'Not Found');
    const mergeBase = await tryText(s, ['merge-base', from, to]);
    const aheadBy = Number(await text(s, ['rev-list', '--count', `${from}..${to}`]));
    const behindBy = Number(await text(s, ['rev-list', '--count', `${to}..${from}`]));
    // GitHub lists at most 250 commits, oldest first.
    const shas = aheadBy ? (await text(s, ['rev-list', '--reverse', `${from}..${to}`])).split('\n').filter(Boolean).slice(0, 250) : [];
    const files = mergeBase ? parseNameStatus(await text(s, ['diff-tree', '-r', '--no-renames', '--name-status', mergeBase, to])) : [];
    const filesWithSha = await Promise.all(
      files.map(async (f) => ({ ...f, sha: f.status === 'removed' ? null : await tryText(s, ['rev-parse', `${to}:${f.filename}`]) })),
    );
    send(200, {
      status: aheadBy && behindBy ? 'diverged' : aheadBy ? 'ahead' : behindBy ? 'behind' : 'identical',
      ahead_by: aheadBy,
      behind_by: behindBy,
      total_commits: aheadBy,
      base_commit: await restCommit(s, from, false),
      merge_base_commit: mergeBase ? await restCommit(s, mergeBase, false) : null,
      commits: await Promise.all(shas.map((sha) => restCommit(s, sha, false))),
      files: filesWithSha,
      html_url: `https://github.com/${s.repository}/compare/${match[1]}...${match[2]}`,
    });
  });

  on('POST', '/merges', async ({ body, send, res }) => {
    const baseBranch = String(body?.base ?? '');
    const headRef = String(body?.head ?? '');
    const current = await head(s, baseBranch);
    const incoming = await resolveCommitish(s, headRef);
    if (!current) throw new HttpError(404, 'Base does not exist');
    if (!incoming) throw new HttpError(404, 'Head does not exist');
    if ((await s.git.run(['merge-base', '--is-ancestor', incoming, current], { okCodes: [1] })).code === 0) return void res.writeHead(204).end();
    const merge = await s.git.run(['merge-tree', '--write-tree', '--no-messages', current, incoming], { okCodes: [1] });
    if (merge.code === 1) throw new HttpError(409, 'Merge conflict');
    const tree = merge.stdout.toString('utf8').trim().split('\n')[0]!;
    const message = typeof body.commit_message === 'string' ? body.commit_message : `Merge ${headRef} into ${baseBranch}`;
    const commit = await makeCommit(s, tree, [current, incoming], message);
    if (!(await apiRefUpdate(s, baseBranch, commit, current))) throw new HttpError(409, 'Base moved during the merge; try again');
    send(201, await restCommit(s, commit, false));
  });
}
