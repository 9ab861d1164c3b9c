// Browser-test support: the scripted OpenAI-compatible server (testing/fake-openai.ts) and the
// real service pointed at it through OPENAI_BASE_URL, in one process. A small control endpoint lets the
// tests script the model's next replies, read what it was sent, and change the transcript.
//   node --import tsx e2e/support/chat-stack.ts   (env: CHAT_PORT, CHAT_PREVIEW_PORT, CONTROL_PORT, DATA_DIR, ADMIN_TOKEN, WAIT_FOR)
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAI, type ScriptedReply } from '../../testing/fake-openai.ts';

const port = Number(process.env.CHAT_PORT ?? 3918);
const controlPort = Number(process.env.CONTROL_PORT ?? 3919);
const previewPort = Number(process.env.CHAT_PREVIEW_PORT ?? 3920);
const dataDir = process.env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'vitae-e2e-chat-'));

// The main test server builds the web app first; start only once it answers, so both serve the same build.
if (process.env.WAIT_FOR) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(process.env.WAIT_FOR)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

const fake = await startFakeOpenAI();
const queue: ScriptedReply[] = [];
const defaultReply: ScriptedReply = { text: 'The profile does not say.' };
fake.fallback = () => queue.shift() ?? defaultReply;

const child = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
  env: {
    ...process.env,
    PORT: String(port),
    // The console's tests publish to the dev preview and promote to main, so this service has both.
    PREVIEW_PORT: String(previewPort),
    DATA_DIR: dataDir,
    BASE_URL: `http://127.0.0.1:${port}`,
    DEV_URL: `http://127.0.0.1:${previewPort}`,
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: 'test-key',
    // The passages' questions would take the replies the browser tests script.
    SEARCH_QUESTIONS: 'off',
    TRUST_PROXY: '1',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function readJson(req: import('node:http').IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
}

const control = createServer((req, res) => void readJson(req).then((body) => answer(req, res, body)));

function answer(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, body: Record<string, unknown>) {
  const reply = (value: unknown) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(value ?? {}));
  };
  switch (`${req.method} ${req.url}`) {
    case 'POST /script':
      queue.push(...(body.replies as ScriptedReply[]));
      return reply({ queued: queue.length });
    case 'POST /reset':
      queue.length = 0;
      fake.requests.length = 0;
      fake.transcript = (body.transcript as string | undefined) ?? 'What did Noa build at Orbitale?';
      return reply({});
    case 'GET /requests':
      return reply(fake.requests.map((r) => ({ path: r.path, aborted: r.aborted, body: r.body })));
    default:
      res.writeHead(404).end();
  }
}
control.listen(controlPort, '127.0.0.1');

let stopping = false;
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  child.kill('SIGTERM');
  control.close();
  await fake.close();
  if (!process.env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
  process.exit(code);
}
child.on('exit', (code) => void stop(code ?? 1));
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
