// `vitae admin edit` with a scripted $EDITOR (a small node script) against a real service: a change is
// validated and committed with the sha it was read at; an unchanged file commits nothing; problems and a
// 409 (the file committed through the API while the editor was open) keep your text and say what to run;
// on a terminal the 409 reopens the editor on their version with your change merged in.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestService, type TestService } from '../testing/service.ts';
import { runVitae, runVitaeInProcess } from './run-vitae.ts';

const TOKEN = 'cli-edit-token-0123456789abcdef';
const ENTRY = 'content/corpus/projects/concierge-copilot.md';
let service: TestService;
let scratch: string;
let editor: string;

/**
 * The scripted editor. EDIT_ACTIONS is a list of steps, one per time the editor is opened (counted in
 * EDIT_STATE): `title:<text>` sets the title line, `tags:<text>` the tags line, `race:<text>` first sets the
 * summary line of the file on the service through the API (someone else's commit), `keep` saves as it is,
 * `fail` exits 1.
 */
const EDITOR_SCRIPT = `
import { readFileSync, writeFileSync } from 'node:fs';
const file = process.argv[2];
const state = process.env.EDIT_STATE;
let count = 0;
try { count = Number(readFileSync(state, 'utf8')); } catch {}
writeFileSync(state, String(count + 1));
const actions = (process.env.EDIT_ACTIONS ?? '').split(';');
for (const action of (actions[count] ?? 'keep').split(',')) {
  const [verb, ...rest] = action.split(':');
  const value = rest.join(':');
  let text = readFileSync(file, 'utf8');
  if (verb === 'fail') process.exit(1);
  if (verb === 'title') text = text.replace(/^title: .*$/m, 'title: ' + JSON.stringify(value));
  if (verb === 'tags') text = text.replace(/^tags:.*$/m, 'tags: ' + value);
  if (verb === 'race') {
    const headers = { Authorization: 'Bearer ' + process.env.SITE_ADMIN_TOKEN, 'Content-Type': 'application/json', Accept: 'application/json' };
    const path = process.env.EDIT_PATH;
    const current = await (await fetch(process.env.SITE_URL + '/api/admin/file?path=' + path, { headers })).json();
    const content = current.content.replace(/^summary: .*$/m, 'summary: ' + JSON.stringify(value));
    const res = await fetch(process.env.SITE_URL + '/api/admin/file', { method: 'PUT', headers, body: JSON.stringify({ path, content, message: 'Someone else', sha: current.sha }) });
    if (!res.ok) { console.error(await res.text()); process.exit(3); }
  }
  writeFileSync(file, text);
}
`;

before(async () => {
  service = await startTestService({ ADMIN_TOKEN: TOKEN });
  scratch = await mkdtemp(join(tmpdir(), 'vitae-edit-test-'));
  editor = join(scratch, 'editor.mjs');
  await writeFile(editor, EDITOR_SCRIPT);
});
after(async () => {
  await service.stop();
  await rm(scratch, { recursive: true, force: true });
});

let runs = 0;
/** The environment of one `vitae admin edit` with the editor doing `actions` (one step per opening). */
const env = (actions: string) => ({
  SITE_URL: service.url,
  SITE_ADMIN_TOKEN: TOKEN,
  EDITOR: `${JSON.stringify(process.execPath)} ${JSON.stringify(editor)}`,
  EDIT_ACTIONS: actions,
  EDIT_STATE: join(scratch, `state-${++runs}`),
  EDIT_PATH: ENTRY,
  NO_COLOR: '1',
});
const opened = async (e: ReturnType<typeof env>) => Number(await readFile(e.EDIT_STATE, 'utf8'));
const api = async (path: string) => {
  const res = await service.get(path, { headers: { Accept: 'application/json', Authorization: `Bearer ${TOKEN}` } });
  assert.equal(res.status, 200, path);
  return res.json();
};
const head = async () => (await api('/api/admin/history?limit=1')).commits[0].sha as string;
const keptFile = (stderr: string) => /kept in (\S+?)[.;]?(\s|$)/.exec(stderr)?.[1];

describe('vitae admin edit', () => {
  it('commits the edited file by slug, based on the sha it read, with the default message', async () => {
    const e = env('title:Concierge Copilot edited in $EDITOR');
    const run = await runVitae(['admin', 'edit', 'concierge-copilot'], { env: e });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^Committed [0-9a-f]{7} to main: Edit ${ENTRY}$`, 'm'));
    assert.match((await api(`/api/admin/file?path=${ENTRY}`)).content, /^title: "Concierge Copilot edited in \$EDITOR"$/m);
  });

  it('an unchanged file: says so and commits nothing', async () => {
    const before = await head();
    const run = await runVitae(['admin', 'edit', ENTRY], { env: env('keep') });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /No changes to content\/corpus\/projects\/concierge-copilot\.md: nothing was committed/);
    assert.equal(await head(), before);
  });

  it('invalid text without a terminal: exit 6 with the problems, nothing committed, the text kept', async () => {
    const before = await head();
    const run = await runVitae(['admin', 'edit', 'concierge-copilot', '-m', 'Break it'], { env: env('tags:[cooking]') });
    assert.equal(run.code, 6, run.stderr);
    assert.match(run.stderr, /tags\.0 must be one of/);
    const kept = keptFile(run.stderr);
    assert.ok(kept, run.stderr);
    assert.match(await readFile(kept, 'utf8'), /^tags: \[cooking\]$/m);
    assert.match(run.stderr, /vitae admin put content\/corpus\/projects\/concierge-copilot\.md .* --sha [0-9a-f]{40}/);
    assert.equal(await head(), before);
  });

  it('a 409 without a terminal: exit 7, their commit stays, your text is kept, and the message says what to run', async () => {
    const run = await runVitae(['admin', 'edit', 'concierge-copilot'], { env: env('race:Changed by someone else,title:My title') });
    assert.equal(run.code, 7, run.stderr);
    assert.match(run.stderr, /was committed on main by someone else while you edited it/);
    assert.match(run.stderr, /Your changes merge cleanly/);
    assert.match(run.stderr, /Run `vitae admin edit concierge-copilot` again/);
    const kept = keptFile(run.stderr);
    assert.ok(kept, run.stderr);
    assert.match(await readFile(kept, 'utf8'), /^title: "My title"$/m);
    const live = (await api(`/api/admin/file?path=${ENTRY}`)).content;
    assert.match(live, /^summary: "Changed by someone else"$/m);
    assert.doesNotMatch(live, /My title/);
  });

  it('a 409 on a terminal: reopens on their version with your change merged in, then commits both', async () => {
    const e = env('race:Summary from the API,title:Title from the editor;keep');
    const run = await runVitaeInProcess(['admin', 'edit', 'concierge-copilot', '-m', 'Edit after a conflict'], { env: e, interactive: true, input: 'y\n' });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /committed on main by someone else/);
    assert.match(run.stderr, /Reopen the editor on their version with your changes\? \[Y\/n\]/);
    assert.equal(await opened(e), 2, 'the editor was opened again');
    assert.match(run.stdout, /^Committed [0-9a-f]{7} to main: Edit after a conflict$/m);
    const live = (await api(`/api/admin/file?path=${ENTRY}`)).content;
    assert.match(live, /^summary: "Summary from the API"$/m, 'their change is kept');
    assert.match(live, /^title: "Title from the editor"$/m, 'and yours');
  });

  it('conflicting edits on a terminal are marked; committing with the markers left in is refused', async () => {
    // This editor also rewrites the summary line before the scripted steps run, so both sides change it.
    const script = join(scratch, 'conflict-editor.mjs');
    await writeFile(
      script,
      `import { readFileSync, writeFileSync } from 'node:fs';\n` +
        `const file = process.argv[2];\n` +
        `writeFileSync(file, readFileSync(file, 'utf8').replace(/^summary: .*$/m, 'summary: "My summary"'));\n` +
        `await import(${JSON.stringify(editor)});\n`,
    );
    const e = { ...env('race:Their summary,title:Mine;keep'), EDITOR: `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}` };
    const before = await head();
    // "y": reopen on their version; "n": do not edit again after the markers are refused.
    const run = await runVitaeInProcess(['admin', 'edit', ENTRY], { env: e, interactive: true, input: 'y\nn\n' });
    assert.equal(run.code, 6, run.stderr);
    assert.match(run.stderr, /1 part conflict/);
    assert.match(run.stderr, /conflict markers .* are still in the file/);
    const kept = keptFile(run.stderr);
    assert.ok(kept, run.stderr);
    const text = await readFile(kept, 'utf8');
    assert.match(text, /^<<<<<<< yours\nsummary: "My summary"\n=======\nsummary: "Their summary"\n>>>>>>> theirs \([0-9a-f]{7}\)$/m);
    assert.match(text, /^title: "Mine"$/m, 'the part only you changed merged by itself');
    assert.notEqual(await head(), before, 'their commit is there');
    assert.doesNotMatch((await api(`/api/admin/file?path=${ENTRY}`)).content, /Mine/, 'yours is not');
  });

  it('without a terminal and without EDITOR: exit 2 saying how to edit in a script', async () => {
    const run = await runVitae(['admin', 'edit', 'concierge-copilot'], { env: { SITE_URL: service.url, SITE_ADMIN_TOKEN: TOKEN } });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /set EDITOR/);
  });

  it('an editor that fails: nothing committed, the text kept', async () => {
    const before = await head();
    const run = await runVitae(['admin', 'edit', 'concierge-copilot'], { env: env('fail') });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /exited with status 1; nothing was committed/);
    assert.equal(await head(), before);
  });
});
