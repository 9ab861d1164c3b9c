// The publish pipeline's stages as commands, for GitHub Actions (.github/workflows/publish.yml) and for anyone
// who wants to run them by hand in a checkout. They run the service's own code over the checkout's git
// repository (not its working tree), so what Actions checks is exactly what the service would publish:
//
//   node --import tsx scripts/publish.ts translate --branch main   # (re)translate stale and missing translations: one commit on the branch
//   node --import tsx scripts/publish.ts build --commit <sha>      # validate the content at a commit and make its build; exit 1 with every problem
//   node --import tsx scripts/publish.ts deploy --branch main --commit <sha>   # check the commit may still go live, and say where
//
// In Actions they write step outputs ($GITHUB_OUTPUT), a summary ($GITHUB_STEP_SUMMARY) and annotations.
// Exit codes: 0 done (or skipped with a note), 1 the stage failed, 2 wrong usage. Translations that could not be
// made do not fail translate (exit 0): its `status` output is `partial` or `failure` and the note a warning
// annotation, so the run still publishes what was made, and the service reads both from the job.
import { appendFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { branches, type Branch } from '../operations/contract/shared.ts';
import { formatProblem, loadCommitContent } from '../operations/content/tree.ts';
import { createBuild } from '../operations/corpus/corpus.ts';
import { createGit } from '../operations/repo/git.server.ts';
import { createContentRepo } from '../operations/repo/content-repo.server.ts';
import { loadConfig } from '../operations/server/config.server.ts';
import { createModels } from '../operations/server/models.server.ts';
import { translateBranch } from '../operations/server/translate.server.ts';

const [stage, ...rest] = process.argv.slice(2);
const option = (name: string) => {
  const at = rest.indexOf(`--${name}`);
  return at === -1 ? undefined : rest[at + 1];
};

function usage(message: string): never {
  console.error(`${message}\nUsage: scripts/publish.ts translate --branch <main|dev> | build --commit <sha> | deploy --branch <main|dev> --commit <sha>`);
  process.exit(2);
}

/** A step output for later steps and jobs (`steps.<id>.outputs.<name>`), when running in Actions. */
function output(name: string, value: string) {
  if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `${name}=${value}\n`);
}
function summary(markdown: string) {
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${markdown}\n`);
}
/** An annotation in Actions (`::notice::`, `::error file=…::`); plain words elsewhere. */
function annotate(kind: 'notice' | 'warning' | 'error', message: string, where: { file?: string; line?: number; title?: string } = {}) {
  const props = [where.title && `title=${where.title}`, where.file && `file=${where.file}`, where.line && `line=${where.line}`].filter(Boolean).join(',');
  // Actions reads `%`, CR and LF in a message as escapes: a note of several lines stays one annotation.
  const escaped = message.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  console.log(process.env.GITHUB_ACTIONS ? `::${kind}${props ? ` ${props}` : ''}::${escaped}` : `${kind}: ${message}`);
}

const gitDir = resolve(execFileSync('git', ['rev-parse', '--git-dir'], { encoding: 'utf8' }).trim());
const git = createGit(gitDir);
const repo = createContentRepo(git);

function branchOption(): Branch {
  const branch = option('branch') ?? process.env.GITHUB_REF_NAME;
  if (!branch || !(branches as readonly string[]).includes(branch)) usage(`--branch must be one of ${branches.join(', ')} (got ${branch ?? 'nothing'})`);
  return branch as Branch;
}
async function commitOption(): Promise<string> {
  const ref = option('commit') ?? 'HEAD';
  return (await git.text(['rev-parse', '--verify', `${ref}^{commit}`])).trim();
}

if (stage === 'translate') {
  const branch = branchOption();
  const head = await repo.head(branch);
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'error' });
  const models = await createModels(config);
  const outcome = await translateBranch(repo, models?.translate, branch, head);
  const commit = outcome.commit ?? head;
  output('commit', commit);
  output('committed', outcome.commit ? 'true' : 'false');
  output('status', outcome.status);
  // The note alone, titled: the service shows it as the stage's note (actions-pipeline.server.ts).
  if (outcome.status === 'partial' || outcome.status === 'failure') annotate('warning', outcome.note, { title: `translate ${outcome.status}` });
  else annotate('notice', `translate ${outcome.status}: ${outcome.note}`);
  summary(`### translate: ${outcome.status}\n\n${outcome.note}${outcome.commit ? `\n\nCommitted ${outcome.commit.slice(0, 7)} on ${branch}.` : ''}`);
  console.log(commit);
} else if (stage === 'build') {
  const commit = await commitOption();
  const { model, problems } = loadCommitContent(await repo.filesAt(commit));
  if (!model || problems.length) {
    for (const problem of problems) annotate('error', problem.message, { file: problem.path, line: problem.line });
    console.error(`The content at ${commit.slice(0, 7)} is invalid; it will not be published:\n${problems.map(formatProblem).join('\n')}`);
    summary(`### build: failure\n\n${problems.map((p) => `- \`${formatProblem(p)}\``).join('\n')}`);
    process.exit(1);
  }
  const build = await createBuild(model, { commit, siteUrl: process.env.BASE_URL ?? 'http://localhost:3000' });
  const counts = `${model.entries.size} entries, ${model.lenses.size} lenses, ${model.documents.size} documents, ${build.search.size} search passages`;
  output('commit', commit);
  output('build', build.id);
  summary(`### build: success\n\n${commit.slice(0, 7)}: ${counts}.`);
  console.log(`Built ${commit.slice(0, 7)}: ${counts}.`);
} else if (stage === 'deploy') {
  const branch = branchOption();
  const commit = await commitOption();
  // A commit no longer on its branch (the branch was reset or force-pushed meanwhile) must not go live.
  const remote = (await git.run(['rev-parse', '--verify', '--quiet', `refs/remotes/origin/${branch}`], { okCodes: [1, 128] })).stdout.toString().trim();
  const tip = remote || (await repo.head(branch));
  const { code } = await git.run(['merge-base', '--is-ancestor', commit, tip], { okCodes: [1] });
  if (code !== 0) {
    annotate('error', `${commit.slice(0, 7)} is no longer on ${branch} (now at ${tip.slice(0, 7)}); it is not published.`);
    process.exit(1);
  }
  const site = (branch === 'main' ? process.env.BASE_URL : process.env.DEV_URL) ?? '';
  const words = `${commit.slice(0, 7)} goes live on ${branch}${site ? ` at ${site}` : ''} when this run succeeds: each instance builds that commit itself (the same code as the build job) and swaps it in.`;
  annotate('notice', words);
  summary(`### deploy\n\n${words}`);
  output('commit', commit);
  console.log(words);
} else {
  usage(stage ? `Unknown stage "${stage}".` : 'Name a stage.');
}
