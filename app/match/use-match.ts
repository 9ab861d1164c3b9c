// The comparison in the browser: posts the description to the REST operation, follows its stream row by row
// (state.ts), stops on demand (the request is aborted, and with it the work on the server), and counts down
// after a 429.
import { useEffect, useReducer, useRef, useState } from 'react';
import type { Locale } from '../i18n/locales.ts';
import { retryAfterSeconds } from '../chat/stream.ts';
import { idleMatch, matchReducer, refusal, secondsLeft, type ErrorBodyLike, type MatchState } from './state.ts';
import { readMatchStream, roleMatchOf } from './stream.ts';

export const MATCH_ENDPOINT = '/api/v1/match';

export function useMatch(locale: Locale, initial: MatchState = idleMatch) {
  const [state, dispatch] = useReducer(matchReducer, initial);
  const [now, setNow] = useState(() => Date.now());
  const controller = useRef<AbortController | null>(null);
  const wait = secondsLeft(state.problem, now);

  useEffect(() => {
    if (!wait) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [wait]);

  // Leaving the page ends a comparison under way.
  useEffect(() => () => controller.current?.abort(), []);

  async function start(description: string, role: string) {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    dispatch({ type: 'start' });
    let finished = false;
    try {
      const res = await fetch(MATCH_ENDPOINT, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/x-ndjson' },
        body: JSON.stringify({ jobDescription: description, locale, ...(role.trim() ? { title: role.trim() } : {}) }),
        signal: abort.signal,
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as ErrorBodyLike;
        const at = Date.now();
        setNow(at);
        dispatch({ type: 'fail', problem: refusal(res.status, body, retryAfterSeconds(res.headers.get('Retry-After')), at) });
        return;
      }
      if (!/ndjson/.test(res.headers.get('Content-Type') ?? '')) {
        // A server that answers the whole comparison at once.
        const result = roleMatchOf(await res.json());
        dispatch(result ? { type: 'done', result } : { type: 'fail', problem: { kind: 'unavailable' } });
        return;
      }
      await readMatchStream(res.body!, (event) => {
        if (event.type === 'done' || event.type === 'error') finished = true;
        dispatch({ type: 'event', event });
      });
      // The stream ended without its last line: cut on the way.
      if (!finished) dispatch({ type: 'fail', problem: { kind: 'network' } });
    } catch {
      if (abort.signal.aborted) dispatch({ type: 'stop' });
      else if (!finished) dispatch({ type: 'fail', problem: { kind: 'network' } });
    } finally {
      if (controller.current === abort) controller.current = null;
    }
  }

  const stop = () => controller.current?.abort();

  return { state, waitSeconds: wait, start, stop };
}
