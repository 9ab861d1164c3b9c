// Test support: the GitHub emulator's GraphQL endpoint, which answers the two things the `github` backend asks
// of it: the createCommitOnBranch mutation (its expectedHeadOid is the compare-and-swap) and queries reading blobs
// by oid, a hundred at a time.
import { HttpError, type EmulatorState, type RouteContext } from './github-emulator-types.ts';
import { apiRefUpdate, hashBlob, makeCommit, tryText, writeTree } from './github-emulator-git.ts';

/** The one GraphQL mutation the backend uses: createCommitOnBranch (expectedHeadOid is the compare-and-swap). */
export async function graphql(s: EmulatorState, { body, send }: RouteContext) {
  const query = String(body?.query ?? '');
  if (/^\s*query\b/.test(query) && /object\(oid:/.test(query)) return blobQuery(s, query, send);
  if (!/createCommitOnBranch/.test(query)) throw new HttpError(400, 'This emulator answers only the createCommitOnBranch mutation and blob queries');
  const input = body?.variables?.input;
  const fail = (type: string, message: string) =>
    send(200, { data: { createCommitOnBranch: null }, errors: [{ type, path: ['createCommitOnBranch'], message }] });
  if (!input?.branch?.branchName || !input?.expectedHeadOid || !input?.message?.headline)
    return fail('INVALID', 'branch, expectedHeadOid and message are required');
  if (input.branch.repositoryNameWithOwner && input.branch.repositoryNameWithOwner !== s.repository)
    return fail('NOT_FOUND', `Could not resolve to a Repository with the name '${input.branch.repositoryNameWithOwner}'.`);
  if (s.faults.readOnly) return fail('FORBIDDEN', 'Resource not accessible by personal access token');
  const branch: string = input.branch.branchName;
  // Few git commands per commit (the head and its tree in one, blobs in parallel, no read-back): the
  // emulator shares its process with the service under test.
  const resolved = await tryText(s, ['rev-parse', `refs/heads/${branch}^{commit}`, `refs/heads/${branch}^{tree}`]);
  if (!resolved) return fail('NOT_FOUND', `A ref named "refs/heads/${branch}" does not exist.`);
  const [current, treeOfHead] = resolved.split('\n') as [string, string];
  if (current !== input.expectedHeadOid)
    return fail('STALE_DATA', `Expected branch to point to "${input.expectedHeadOid}" but it did not.  Pull and try again.`);
  const deletions: Array<{ path: string }> = input.fileChanges?.deletions ?? [];
  const additions: Array<{ path: string; contents: string }> = input.fileChanges?.additions ?? [];
  if (deletions.length) {
    const present = new Set(
      (await s.git.run(['ls-tree', '-r', '-z', '--name-only', '--full-tree', current, '--', ...deletions.map((d) => d.path)])).stdout
        .toString('utf8')
        .split('\0'),
    );
    if (deletions.some((d) => !present.has(d.path)))
      return fail('UNPROCESSABLE', `A path was requested for deletion which does not exist as of commit oid \`${current}\``);
  }
  const shas = await Promise.all(additions.map((a) => hashBlob(s, Buffer.from(String(a.contents), 'base64'))));
  const entries = [
    ...deletions.map((d) => ({ path: d.path, mode: '100644', sha: null })),
    ...additions.map((a, i) => ({ path: a.path, mode: '100644', sha: shas[i]! })),
  ];
  const tree = await writeTree(s, treeOfHead, entries);
  const message = input.message.body ? `${input.message.headline}\n\n${input.message.body}` : input.message.headline;
  const committedDate = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const commit = await makeCommit(s, tree, [current], message, undefined, committedDate);
  if (!(await apiRefUpdate(s, branch, commit, current)))
    return fail('STALE_DATA', `Expected branch to point to "${input.expectedHeadOid}" but it did not.  Pull and try again.`);
  send(200, {
    data: {
      createCommitOnBranch: {
        commit: { oid: commit, url: `https://github.com/${s.repository}/commit/${commit}`, committedDate, message },
        ref: { name: branch, target: { oid: commit } },
      },
    },
  });
}

/** `repository { b0: object(oid: "…") { ... on Blob { text isBinary isTruncated } } … }`, read with one `cat-file --batch`. */
async function blobQuery(s: EmulatorState, query: string, send: RouteContext['send']) {
  const wanted = [...query.matchAll(/(\w+): object\(oid: "([0-9a-f]{40})"\)/g)].map((m) => ({ alias: m[1]!, sha: m[2]! }));
  const out = (await s.git.run(['cat-file', '--batch'], { input: wanted.map((w) => w.sha).join('\n') + '\n' })).stdout;
  const repositoryData: Record<string, unknown> = {};
  let offset = 0;
  for (const { alias, sha } of wanted) {
    const end = out.indexOf(0x0a, offset);
    const [, type, size] = out.subarray(offset, end).toString('utf8').split(' ');
    if (!type || type === 'missing' || size === undefined) {
      repositoryData[alias] = null;
      offset = end + 1;
      continue;
    }
    const bytes = out.subarray(end + 1, end + 1 + Number(size));
    offset = end + 1 + Number(size) + 1;
    const binary = bytes.includes(0);
    repositoryData[alias] =
      type === 'blob' ? { oid: sha, text: binary ? null : bytes.toString('utf8'), isBinary: binary, isTruncated: false, byteSize: bytes.length } : {};
  }
  send(200, { data: { repository: repositoryData } });
}
