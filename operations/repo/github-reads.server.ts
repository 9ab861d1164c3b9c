// What the github backend reads. A branch head is one conditional request (ETag → 304 costs nothing), a commit's
// whole tree one recursive git-trees call, blobs a few calls by sha or GraphQL queries of a hundred, and trees, blobs
// and commit details are kept by sha, since nothing under a sha ever changes.
import { AppError } from '../contract/errors.ts';
import type { Branch } from '../contract/shared.ts';
import { COMPARE_COMMITS, listedCommit, type Divergence, type FileVersion, type HistoryCommit } from './git-backend.ts';
import { call, explainFailure, remember, type Hub, type KnownCommit, type OctokitFailure } from './github-api.server.ts';
import type { TreeFile } from './local-repo.server.ts';

/** GitHub's commit API lists at most this many files; a commit with more is diffed tree against tree. */
const COMMIT_FILES_LIMIT = 300;
const SHA = /^[0-9a-f]{40}$/;
/** Up to this many missing blobs are read one call each; more go through GraphQL in batches. */
const BLOBS_ONE_BY_ONE = 8;
const BLOBS_PER_QUERY = 100;

export async function head(hub: Hub, branch: Branch): Promise<string> {
  const { octokit, owner, repo } = hub;
  const known = hub.heads.get(branch);
  try {
    const res = await octokit.rest.git.getRef({ owner, repo, ref: `heads/${branch}`, headers: known ? { 'if-none-match': known.etag } : {} });
    const sha = res.data.object.sha;
    if (res.headers.etag) hub.heads.set(branch, { etag: res.headers.etag, sha });
    return sha;
  } catch (error) {
    const status = (error as OctokitFailure).status;
    if (status === 304 && known) return known.sha;
    // GitHub answers 404 both for a missing branch and for a repository that is missing (or hidden from the token).
    const repoThere =
      status === 404 &&
      (await octokit.rest.repos.get({ owner, repo }).then(
        () => true,
        () => false,
      ));
    throw explainFailure(
      error,
      `reading the head of ${branch}`,
      hub.options,
      repoThere ? () => new AppError('repo_not_configured', `The content repository has no branch "${branch}".`) : undefined,
    );
  }
}

export async function treeAt(hub: Hub, commit: string): Promise<TreeFile[]> {
  const cached = hub.trees.get(commit);
  if (cached) return cached;
  const { owner, repo } = hub;
  const { data } = await call(hub, `reading the tree of ${commit.slice(0, 7)}`, () =>
    hub.octokit.rest.git.getTree({ owner, repo, tree_sha: commit, recursive: 'true' }),
  );
  if (data.truncated) throw new AppError('repo_error', `The tree of ${commit.slice(0, 7)} is too large for one GitHub call.`, { status: 502 });
  const files = data.tree
    .filter((e) => e.type !== 'tree' && e.path.startsWith('content/'))
    .map((e) => ({ path: e.path, mode: e.mode, sha: e.sha, size: e.size ?? 0 }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return remember(hub.trees, commit, files, 64);
}

/** Blob texts by sha: a few through the git-blobs API, many through GraphQL, a hundred a query (a first start reads the whole tree). */
export async function blobTexts(hub: Hub, shas: string[]): Promise<Map<string, string>> {
  const { owner, repo, blobs } = hub;
  let missing = [...new Set(shas)].filter((sha) => !blobs.has(sha));
  if (missing.length > BLOBS_ONE_BY_ONE) {
    for (let i = 0; i < missing.length; i += BLOBS_PER_QUERY) await blobQuery(hub, missing.slice(i, i + BLOBS_PER_QUERY));
    missing = missing.filter((sha) => !blobs.has(sha)); // binary or truncated ones: byte for byte below
  }
  await Promise.all(
    missing.map(async (sha) => {
      const { data } = await call(hub, `reading blob ${sha.slice(0, 7)}`, () => hub.octokit.rest.git.getBlob({ owner, repo, file_sha: sha }));
      blobs.set(sha, Buffer.from(data.content, data.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8'));
    }),
  );
  return new Map(shas.map((sha) => [sha, blobs.get(sha)!]));
}

/** One blob's bytes (an image's, which the texts never hold), through the git-blobs API. */
export async function blobBytes(hub: Hub, sha: string): Promise<Buffer> {
  const { owner, repo } = hub;
  const { data } = await call(hub, `reading blob ${sha.slice(0, 7)}`, () => hub.octokit.rest.git.getBlob({ owner, repo, file_sha: sha }));
  return Buffer.from(data.content, data.encoding === 'base64' ? 'base64' : 'utf8');
}

async function blobQuery(hub: Hub, part: string[]): Promise<void> {
  const query = `query ($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { ${part
    .map((sha, j) => `b${j}: object(oid: "${sha}") { ... on Blob { text isBinary isTruncated } }`)
    .join(' ')} } }`;
  type Blob = { text: string | null; isBinary: boolean; isTruncated: boolean } | null;
  const data = await call(hub, `reading ${part.length} blobs`, () =>
    hub.octokit.graphql<{ repository: Record<string, Blob> }>(query, { owner: hub.owner, name: hub.repo }),
  );
  part.forEach((sha, j) => {
    const blob = data.repository[`b${j}`];
    if (blob && blob.text !== null && !blob.isTruncated && !blob.isBinary) hub.blobs.set(sha, blob.text);
  });
}

export async function meta(hub: Hub, sha: string): Promise<KnownCommit> {
  const cached = hub.commits.get(sha);
  if (cached) return cached;
  const { owner, repo } = hub;
  const { data } = await call(hub, `reading commit ${sha.slice(0, 7)}`, () => hub.octokit.rest.git.getCommit({ owner, repo, commit_sha: sha }));
  const known = {
    sha: data.sha,
    parents: data.parents.map((p) => p.sha),
    message: data.message,
    author: data.author.name,
    authorDate: data.author.date,
    committedAt: data.committer.date,
  };
  return remember(hub.commits, sha, known, 4096);
}

/** The paths a commit changed against its first parent (the commit API's list, or a tree diff when it is long). */
async function changedFiles(hub: Hub, sha: string): Promise<string[]> {
  const known = hub.commits.get(sha);
  if (known?.files) return known.files;
  const { owner, repo } = hub;
  const { data } = await call(hub, `reading commit ${sha.slice(0, 7)}`, () => hub.octokit.rest.repos.getCommit({ owner, repo, ref: sha }));
  const parents = data.parents.map((p) => p.sha);
  let files = (data.files ?? []).map((f) => f.filename);
  const blobs = new Map((data.files ?? []).map((f) => [f.filename, f.status === 'removed' ? null : f.sha]));
  if (files.length >= COMMIT_FILES_LIMIT || !parents.length) {
    const after = await treeAt(hub, sha);
    const before = parents[0] ? new Map((await treeAt(hub, parents[0])).map((e) => [e.path, e.sha])) : new Map<string, string>();
    const now = new Map(after.map((e) => [e.path, e.sha]));
    files = [...new Set([...before.keys(), ...now.keys()])].filter((p) => before.get(p) !== now.get(p));
  }
  const entry: KnownCommit = {
    ...metaOfListed(data),
    parents,
    files,
    blobs,
  };
  return remember(hub.commits, sha, entry, 4096).files!;
}

/** The blob `path` has after commit `sha` (null: not there), from the commit API, or its tree when the API's list is cut short. */
async function blobAfter(hub: Hub, sha: string, path: string): Promise<string | null> {
  await changedFiles(hub, sha);
  const listed = hub.commits.get(sha)?.blobs?.get(path);
  return listed !== undefined ? listed : ((await treeAt(hub, sha)).find((e) => e.path === path)?.sha ?? null);
}

const underContent = (files: string[], path?: string) => files.filter((f) => (path ? f === path || f.startsWith(`${path}/`) : f.startsWith('content/'))).sort();

async function historyCommit(hub: Hub, sha: string, path?: string): Promise<HistoryCommit> {
  if (hub.commits.get(sha)?.author === undefined) hub.commits.delete(sha);
  const files = await changedFiles(hub, sha);
  const m = hub.commits.get(sha)!;
  // The whole message: listedCommit takes its subject, and its author from a Co-authored-by trailer where there is one.
  return listedCommit({ sha, parents: m.parents, message: m.message, author: m.author ?? '', time: m.authorDate, files: underContent(files, path) });
}

/** The full sha of a commit named by a (possibly abbreviated) sha; 404 when there is none. */
export async function commitOf(hub: Hub, ref: string): Promise<string> {
  if (SHA.test(ref) && (hub.commits.has(ref) || hub.trees.has(ref))) return ref;
  const none = () => new AppError('not_found', `No commit "${ref}" in the content repository.`);
  const { owner, repo } = hub;
  const { data } = await call(hub, `looking up commit ${ref}`, () => hub.octokit.rest.repos.getCommit({ owner, repo, ref, per_page: 1 }), none).catch(
    (error: unknown) => {
      // GitHub answers 422 for a sha that names nothing.
      if (error instanceof AppError && /answered 422/.test(error.message)) throw none();
      throw error;
    },
  );
  return data.sha;
}

/** Commits from `start` (newest first) touching `path`, `count` of them after skipping `skip`, and whether more follow. */
export async function listCommits(hub: Hub, start: string, path: string, skip: number, count: number): Promise<{ shas: string[]; more: boolean }> {
  // Pages of the commits API are fixed-size: the largest page size dividing both skip and count reads no extra.
  const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
  const perPage = Math.min(100, gcd(skip, count) || count);
  const { owner, repo } = hub;
  const shas: string[] = [];
  let page = Math.floor(skip / perPage) + 1;
  let more: boolean;
  for (;;) {
    const res = await call(hub, 'listing commits', () => hub.octokit.rest.repos.listCommits({ owner, repo, sha: start, path, per_page: perPage, page }));
    for (const c of res.data) hub.commits.set(c.sha, hub.commits.get(c.sha) ?? metaOfListed(c));
    shas.push(...res.data.map((c) => c.sha));
    more = /rel="next"/.test(res.headers.link ?? '');
    if (shas.length >= count || !more) break;
    page++;
  }
  return { shas: shas.slice(0, count), more: more || shas.length > count };
}

export async function log(hub: Hub, start: string, { path, skip, limit }: { path?: string; skip: number; limit: number }) {
  const { shas, more } = await listCommits(hub, start, path ?? 'content', skip, limit);
  return { commits: await Promise.all(shas.map((sha) => historyCommit(hub, sha, path))), more };
}

function metaOfListed(c: {
  sha: string;
  parents: Array<{ sha: string }>;
  commit: { message: string; author: { name?: string; date?: string } | null; committer: { date?: string } | null };
}): KnownCommit {
  return {
    sha: c.sha,
    parents: c.parents.map((p) => p.sha),
    message: c.commit.message,
    author: c.commit.author?.name ?? '',
    authorDate: c.commit.author?.date ?? '',
    committedAt: c.commit.committer?.date ?? '',
  };
}

/** The compare API's answer; two commits compare the same for ever, so the answer for two shas is kept. */
export async function compareRefs(hub: Hub, base: string, target: string) {
  const key = `${base}...${target}`;
  const cached = hub.compares.get(key);
  if (cached) return cached;
  const { owner, repo } = hub;
  const { data } = await call(hub, `comparing ${base} with ${target}`, () => hub.octokit.rest.repos.compareCommitsWithBasehead({ owner, repo, basehead: key }));
  return SHA.test(base) && SHA.test(target) ? remember(hub.compares, key, data, 8) : data;
}

export async function compare(hub: Hub, from: string, to: string): Promise<Divergence> {
  const data = await compareRefs(hub, from, to);
  return {
    aheadBy: data.ahead_by,
    behindBy: data.behind_by,
    mergeBase: data.merge_base_commit?.sha ?? null,
    async commits() {
      // The compare API lists commits oldest first; the local backend (git log) newest first.
      const shas = data.commits
        .map((c) => c.sha)
        .reverse()
        .slice(0, COMPARE_COMMITS);
      for (const c of data.commits) hub.commits.set(c.sha, hub.commits.get(c.sha) ?? metaOfListed(c));
      const commits = await Promise.all(shas.map((sha) => historyCommit(hub, sha)));
      return commits.filter((c) => c.files.length);
    },
    files: async () => (data.files ?? []).map((f) => ({ path: f.filename, sha: f.status === 'removed' ? null : f.sha })),
  };
}

export async function* fileVersions(hub: Hub, start: string, path: string, limit: number): AsyncIterable<FileVersion> {
  // A call for the commits, then one per version asked for (and its blob, unless read before).
  const { shas } = await listCommits(hub, start, path, 0, limit);
  for (const commit of shas) {
    const blob = await blobAfter(hub, commit, path);
    yield { commit, text: blob ? (await blobTexts(hub, [blob])).get(blob)! : null };
  }
}

export async function fileTimes(hub: Hub, commit: string, known: (sha: string) => ReadonlyMap<string, Date> | undefined): Promise<Map<string, Date>> {
  // Walk the first parents back until every current path has a time (a path's first sighting is its
  // last change); a commit whose times are known already ends the walk.
  const wanted = new Set((await treeAt(hub, commit)).map((e) => e.path));
  const times = new Map<string, Date>();
  let at: string | undefined = commit;
  while (at && [...wanted].some((p) => !times.has(p))) {
    const before = known(at);
    if (before) {
      for (const [path, time] of before) if (!times.has(path)) times.set(path, time);
      break;
    }
    const files = await changedFiles(hub, at);
    const m: KnownCommit = hub.commits.get(at)!;
    const time = new Date(m.committedAt);
    for (const path of files) if (path.startsWith('content/') && !times.has(path)) times.set(path, time);
    at = m.parents[0];
  }
  return times;
}
