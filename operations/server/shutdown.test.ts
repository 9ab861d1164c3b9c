// Graceful restarts with the real server as a child process and a real SIGTERM (to the server's own pid, as
// `docker stop` or Kubernetes send it): answers under way finish, new connections are refused, a chat stream
// ends with its final status line, every write committed to git had its client answered 200, and the
// process exits 0 — or, when the grace runs out, what is left is cut and the process still exits.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request, Agent } from 'node:http';
import { connect } from 'node:net';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../../testing/server-process.ts';
import { startFakeOpenAI } from '../../testing/fake-openai.ts';
import { contentGit, skillFile } from '../../testing/content-git.ts';
import { eventually } from '../../testing/admin-http.ts';
import { englishOnlyContent } from '../../testing/content-fixture.ts';

const TOKEN = 'shutdown-suite-token-2c8e5a71f40b9d36';
const RS = '\u001e';
const cleanup: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const task of cleanup.reverse()) await task().catch(() => {});
});

async function start(env: Record<string, string> = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'vitae-shutdown-'));
  cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
  const server = await startServerProcess(dataDir, { ADMIN_TOKEN: TOKEN, CONTENT_DIR: englishOnlyContent(), ...env });
  cleanup.push(() => server.kill9());
  return { server, dataDir };
}

/** SIGTERM to the server process alone (not its group: git children must be left to finish), and its exit. */
function sigterm(server: ServerProcess): { exited: Promise<{ code: number | null; ms: number }> } {
  const sent = Date.now();
  const exited = new Promise<{ code: number | null; ms: number }>((resolve) => server.child.once('exit', (code) => resolve({ code, ms: Date.now() - sent })));
  server.child.kill('SIGTERM');
  return { exited };
}

/** Status lines and answer text of a chat stream with events. */
function parseChat(text: string) {
  const events: Array<Record<string, any>> = [];
  let answer = '';
  for (const [i, piece] of text.split(RS).entries()) {
    if (i === 0) {
      answer += piece;
      continue;
    }
    const newline = piece.indexOf('\n');
    events.push(JSON.parse(piece.slice(0, newline)));
    answer += piece.slice(newline + 1);
  }
  return { events, answer };
}

async function startChat(url: string) {
  const res = await fetch(`${url}/api/chat`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'What did Noa build for hotels?' }], events: true }),
  });
  if (res.status !== 200) assert.fail(`chat answered ${res.status}: ${await res.text()}`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const first = await reader.read();
  text += decoder.decode(first.value, { stream: true });
  const rest = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return text + decoder.decode();
      text += decoder.decode(value, { stream: true });
    }
  })();
  return { rest, soFar: () => text };
}

/**
 * Once the server has logged the signal, a new connection is refused. (Before that, one that reaches the
 * kernel's accept queue just as the listener closes can be reset rather than refused: never read, so
 * nothing was done for it; a load balancer avoids even that by draining the instance first.)
 */
async function refusedAfterSignal(server: ServerProcess) {
  await eventually('the signal to be logged', () => (server.output().includes('"event":"shutdown"') ? true : undefined));
  const outcome = await new Promise<number | string>((resolve) => {
    const req = request(`${server.url}/api/health`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
  assert.equal(outcome, 'ECONNREFUSED');
}

describe('SIGTERM during a chat stream', () => {
  it('lets the answer finish with its final status line, refuses new connections, then exits 0', { timeout: 90_000 }, async () => {
    const model = await startFakeOpenAI();
    cleanup.push(() => model.close());
    const answer = 'Noa built a concierge copilot that answers hotel guests in their own language, day and night.';
    model.script({ text: answer, chunks: 15, delayMs: 150 }); // about two seconds of streaming
    const { server } = await start({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'sk-test' });

    const chat = await startChat(server.url);
    await eventually('the answer to start', () => (chat.soFar().includes('Noa built') ? true : undefined));
    const { exited } = sigterm(server);
    await refusedAfterSignal(server);
    const { events, answer: streamed } = parseChat(await chat.rest);
    assert.equal(streamed, answer, 'the whole answer arrived');
    assert.deepEqual(
      events.map((e) => e.type),
      ['done'],
    );
    const { code } = await exited;
    assert.equal(code, 0, server.output());
    assert.match(server.output(), /"event":"shutdown".*"clean":true/);
  });

  it(
    'when the grace runs out: the stream ends with an error status line saying so, a stuck request is cut, the process exits',
    { timeout: 90_000 },
    async () => {
      const model = await startFakeOpenAI();
      cleanup.push(() => model.close());
      model.script({ hang: true });
      const { server } = await start({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'sk-test', SHUTDOWN_GRACE_SECONDS: '2' });

      // A write whose body never comes: it can never finish, so only the end of the grace ends it.
      const stuck = connect(Number(new URL(server.url).port), '127.0.0.1');
      await new Promise<void>((resolve) => stuck.once('connect', () => resolve()));
      stuck.write(
        `PUT /api/admin/file HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"path":`,
      );
      const stuckClosed = new Promise<string>((resolve) => {
        let got = '';
        stuck.on('data', (d: Buffer) => (got += d.toString()));
        stuck.on('close', () => resolve(got));
        stuck.on('error', () => {});
      });

      const chat = await startChat(server.url);
      await eventually('the answer to start', () => (chat.soFar().includes('…') ? true : undefined));
      const { exited } = sigterm(server);
      const { events } = parseChat(await chat.rest);
      assert.deepEqual(
        events.map((e) => e.type),
        ['error', 'done'],
      );
      assert.match(events[0]!.message, /restarting/);
      assert.equal(await stuckClosed, '', 'the stuck request got no answer: its connection was closed');
      const { code, ms } = await exited;
      assert.equal(code, 1, 'the grace ran out with a request open');
      assert.ok(ms < 2000 + 1500, `exited ${ms} ms after SIGTERM`);
      assert.ok(model.requests.at(-1)!.aborted, 'the model call was cancelled');
    },
  );
});

interface Outcome {
  message: string;
  result: 'ok' | 'refused' | 'reset' | 'other';
  status?: number;
  sha?: string;
  connection?: string;
  error?: string;
}

/** One PUT over a keep-alive agent, with its outcome as the client sees it. */
function put(url: string, agent: Agent, path: string, message: string): Promise<Outcome> {
  const body = JSON.stringify({ path, content: skillFile(message), message });
  return new Promise((resolve) => {
    const req = request(
      `${url}/api/admin/file`,
      {
        method: 'PUT',
        agent,
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => {
          const parsed = JSON.parse(text);
          resolve({ message, result: 'ok', status: res.statusCode, sha: parsed.commit?.sha, connection: res.headers.connection });
        });
        res.on('error', (error) => resolve({ message, result: 'other', error: error.message }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ message, result: error.code === 'ECONNREFUSED' ? 'refused' : error.code === 'ECONNRESET' ? 'reset' : 'other', error: error.message }),
    );
    req.end(body);
  });
}

describe('SIGTERM during a burst of writes', () => {
  it(
    'answers every write it committed with 200, refuses new connections cleanly, stops the pipeline at a stage boundary, exits 0',
    { timeout: 120_000 },
    async (t) => {
      const { server, dataDir } = await start();
      const repo = contentGit(dataDir);
      const base = repo.head();
      const agent = new Agent({ keepAlive: true });
      cleanup.push(async () => agent.destroy());

      // Eight writers, each writing one file after another over its kept-alive connection until refused.
      const outcomes: Outcome[] = [];
      let signalled = false;
      let answeredDuringDrain = 0;
      const writers = Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; ; i++) {
          const outcome = await put(server.url, agent, `content/skills/burst-${w}-${String(i).padStart(3, '0')}.md`, `burst ${w} ${i}`);
          outcomes.push(outcome);
          if (outcome.result !== 'ok') return;
          assert.equal(outcome.status, 200, JSON.stringify(outcome));
          if (signalled && outcome.connection === 'close') answeredDuringDrain++;
        }
      });
      await eventually('twelve answered writes', () => (outcomes.filter((o) => o.result === 'ok').length >= 12 ? true : undefined), 60_000);
      signalled = true;
      const { exited } = sigterm(server);
      await Promise.all(writers);
      const { code } = await exited;
      assert.equal(code, 0, server.output());

      const history = repo.log(`${base}..main`);
      const bySubject = new Map(outcomes.map((o) => [o.message, o]));
      for (const commit of history) {
        const outcome = bySubject.get(commit.subject);
        assert.ok(outcome, `commit ${commit.subject} was made for a writer`);
        assert.equal(outcome.result, 'ok', `the write "${commit.subject}" was committed, so its client was answered: ${JSON.stringify(outcome)}`);
        assert.equal(outcome.sha, commit.sha);
      }
      const answered = outcomes.filter((o) => o.result === 'ok');
      assert.equal(answered.length, history.length, 'every 200 is a commit on main');
      // A writer ends with a refused connection; a reset is only ever a request on a kept-alive connection
      // closed as idle at the signal: never read, never committed (above), safe to send again.
      const ends = outcomes.filter((o) => o.result !== 'ok');
      assert.equal(ends.length, 8);
      for (const end of ends) assert.ok(end.result === 'refused' || end.result === 'reset', JSON.stringify(end));
      assert.ok(answeredDuringDrain >= 1, 'writes under way at the signal were finished and answered (with Connection: close)');
      t.diagnostic(`${answered.length} writes answered, ${answeredDuringDrain} of them during the drain; ends: ${ends.map((o) => o.result).join(', ')}`);

      // The pipeline stopped at a stage boundary: no run left running (a run that had not built yet is marked
      // interrupted and queued again), and the next start publishes the head.
      const records = await Promise.all(
        (await readdir(join(dataDir, 'runs')))
          .filter((f) => f.endsWith('.json'))
          .map(async (f) => JSON.parse(await readFile(join(dataDir, 'runs', f), 'utf8'))),
      );
      assert.deepEqual(
        records.filter((r) => r.status === 'running'),
        [],
      );
      for (const r of records.filter((r) => r.status === 'failure')) assert.match(r.error, /interrupted/);
      assert.equal(repo.fsck().status, 0);
      assert.ok(!server.output().includes(TOKEN), 'the token is never logged');
      const again = await startServerProcess(dataDir, { ADMIN_TOKEN: TOKEN, CONTENT_DIR: englishOnlyContent() });
      cleanup.push(() => again.kill9());
      for (let i = 0; i < 600 && JSON.parse(await readFile(join(dataDir, 'deployed.json'), 'utf8')).main !== repo.head(); i++)
        await new Promise((r) => setTimeout(r, 50));
      assert.equal(JSON.parse(await readFile(join(dataDir, 'deployed.json'), 'utf8')).main, repo.head(), 'the restart publishes the head');
      await again.stop();
    },
  );
});
