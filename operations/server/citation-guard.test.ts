// The agent's answer never cites a slug that no tool returned: citationGuard filters the streamed text.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { citationGuard } from './agent.server.ts';

const known = new Set(['concierge-copilot', 'head-of-ai-orbitale', 'talks', 'credentials']);
function run(deltas: string[], returned: string[]): { text: string; chunks: string[] } {
  const chunks: string[] = [];
  const guard = citationGuard(
    (slug) => returned.includes(slug),
    (slug) => known.has(slug) || (slug.match(/-/g)?.length ?? 0) >= 2,
    (t) => chunks.push(t),
  );
  for (const d of deltas) guard.push(d);
  guard.end();
  return { text: chunks.join(''), chunks };
}

describe('citationGuard', () => {
  it('keeps citations of returned slugs and drops the others, however the text is split', () => {
    const text = 'She led Concierge Copilot (concierge-copilot) and spoke at a summit (talks, made-up-talk-slug). She runs a bakery (bakery-of-noa-lisbon).';
    const expected = 'She led Concierge Copilot (concierge-copilot) and spoke at a summit (talks). She runs a bakery.';
    for (const size of [1, 3, 7, 200]) {
      const deltas = text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
      assert.equal(run(deltas, ['concierge-copilot', 'talks']).text, expected, `chunks of ${size}`);
    }
  });
  it('drops a known record that no tool returned this time', () => {
    assert.equal(run(['Her credentials (credentials) are listed.'], []).text, 'Her credentials are listed.');
  });
  it('leaves other parentheses alone, even unclosed ones', () => {
    for (const text of ['In Lisbon (Portugal), since 2021 (two years).', 'A note (e-commerce) stays.', 'An open ( parenthesis\nthen text', 'Ends open (abc']) {
      assert.equal(run([...text], []).text, text);
    }
  });
  it('drops an invented slug inside another parenthesis, however the text is split', () => {
    const text = 'She spoke at a summit (see (made-up-talk-slug)) and wrote (a note ((talks))).';
    const expected = 'She spoke at a summit (see) and wrote (a note ((talks))).';
    for (const size of [1, 2, 5, 200]) {
      const deltas = text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
      assert.equal(run(deltas, ['talks']).text, expected, `chunks of ${size}`);
    }
  });
});
