// Chat time to first answer byte through /api/chat vs calling the scripted OpenAI-compatible server
// directly, same run (issue "The agent", goal ≤ +10 ms).
import { startFakeOpenAI } from '../testing/fake-openai.ts';
import { median, percentile, printTable, startService, timedStream } from './lib.ts';

/** Milliseconds to the first chunk of a streamed answer that `isText` accepts. */
const firstTextByte = async (url: string, init: RequestInit, isText: (chunk: string) => boolean) => (await timedStream(url, init, isText)).first;

export async function benchChat(options: { runs: number }) {
  const model = await startFakeOpenAI();
  model.fallback = { text: 'Noa is based in Lisbon and leads AI at Orbitale Travel.', chunks: 4 };
  const service = await startService({ OPENAI_BASE_URL: model.url, TRUST_PROXY: '1' });
  try {
    const direct: number[] = [];
    const viaChat: number[] = [];
    const completion = { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Where is Noa based?' }] };
    for (let i = 0; i < options.runs + 5; i++) {
      const d = await firstTextByte(
        `${model.url}/chat/completions`,
        { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(completion) },
        (c) => c.includes('"content":"N'),
      );
      // A new client address each time: the chat budget is 10 a minute per IP.
      const c = await firstTextByte(
        `${service.url}/api/chat`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.9.${i >> 8}.${i & 255}` },
          body: JSON.stringify({ messages: [{ role: 'user', content: 'Where is Noa based?' }] }),
        },
        (t) => t.length > 0,
      );
      // the first few warm both paths up
      if (i >= 5) {
        direct.push(d);
        viaChat.push(c);
      }
    }
    const row = {
      runs: options.runs,
      'direct median ms': median(direct).toFixed(1),
      '/api/chat median ms': median(viaChat).toFixed(1),
      'added median ms': (median(viaChat) - median(direct)).toFixed(1),
      'added p95 ms': (percentile(viaChat, 95) - percentile(direct, 95)).toFixed(1),
    };
    printTable('Chat time to first answer byte (goal: ≤ +10 ms over the provider)', [row]);
    return row;
  } finally {
    await service.stop();
    await model.close();
  }
}
