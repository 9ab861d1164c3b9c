// Small pieces every console screen uses: the branch the page works on, links that keep it, a notice
// that says what went wrong in words a person can act on, keyboard shortcuts as the platform writes them.
import { Link, useSearchParams, type LinkProps } from '@remix-run/react';
import { useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { z } from 'zod';
import { describeIssue } from '../../operations/contract/issues.ts';
import type { Trouble } from './api.ts';
import type { FileOut } from './types.ts';

export type Branch = 'main' | 'dev';

export function useBranch(): Branch {
  const [params] = useSearchParams();
  return params.get('branch') === 'main' ? 'main' : 'dev';
}

/** A console URL on the current branch, with extra query parameters. */
export function consoleHref(path: string, branch: Branch, query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  if (branch !== 'dev') params.set('branch', branch);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value);
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export function ConsoleLink({ to, query, ...props }: Omit<LinkProps, 'to'> & { to: string; query?: Record<string, string | undefined> }) {
  const branch = useBranch();
  return <Link {...props} to={consoleHref(to, branch, query)} />;
}

const noSubscription = () => () => {};

/**
 * False while the server renders and while the browser hydrates that HTML, true from then on: what only the
 * browser knows (the change set in localStorage, the clock) is shown once it is true, so the two renders agree.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/** "3 minutes ago", written by the browser after hydration (the server's clock would disagree with it by then). */
export function TimeAgo({ when, now }: { when: string | number; now?: number }) {
  const hydrated = useHydrated();
  const exact = new Date(when).toISOString();
  return <time dateTime={exact}>{hydrated ? timeAgo(when, now) : exact.slice(0, 16).replace('T', ' ')}</time>;
}

/** "⌘S" on a Mac, "Ctrl+S" elsewhere; rendered after hydration so the server and the browser agree. */
export function Shortcut({ keys }: { keys: string }) {
  const [mac, setMac] = useState(false);
  useEffect(() => setMac(/Mac|iPhone|iPad/.test(navigator.platform)), []);
  const text = keys
    .replace('Mod-', mac ? '⌘' : 'Ctrl+')
    .replace('Enter', mac ? '↩' : 'Enter')
    .replace('Escape', 'Esc');
  return <kbd className="shortcut">{text}</kbd>;
}

/** Counts a 429's wait down to zero. */
function useCountdown(seconds: number | undefined): number {
  const [left, setLeft] = useState(seconds ?? 0);
  useEffect(() => {
    setLeft(seconds ?? 0);
    if (!seconds) return;
    const started = Date.now();
    const timer = setInterval(() => {
      const remaining = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000));
      setLeft(remaining);
      if (!remaining) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [seconds]);
  return left;
}

/** What went wrong, beside what caused it: title, the service's words, its problems, and a wait if any. */
export function TroubleNotice({ trouble, children, onDismiss }: { trouble: Trouble; children?: ReactNode; onDismiss?: () => void }) {
  const wait = useCountdown(trouble.retryAfter);
  return (
    <div className="notice notice-error" role="alert">
      <p className="notice-title">{trouble.title}</p>
      <p>{trouble.message}</p>
      {trouble.problems.length ? (
        <ul className="problem-list">
          {trouble.problems.map((p, i) => (
            <li key={i}>
              {p.path ? (
                <code>
                  {p.path}
                  {p.line ? `:${p.line}` : ''}
                </code>
              ) : null}{' '}
              {p.message}
            </li>
          ))}
        </ul>
      ) : null}
      {trouble.retryAfter ? <p className="muted">{wait ? `You can try again in ${wait} s.` : 'You can try again now.'}</p> : null}
      {children}
      {onDismiss ? (
        <button type="button" className="button ghost small" onClick={onDismiss}>
          Dismiss
        </button>
      ) : null}
    </div>
  );
}

/** A problem found in another file than the one at hand: a link to that file (at its line), then what is wrong. */
export function ProblemElsewhere({ problem }: { problem: { path?: string; line?: number; message: string } }) {
  return (
    <>
      <ConsoleLink to="/admin/edit" query={{ path: problem.path }}>
        {problem.path}
        {problem.line ? `:${problem.line}` : ''}
      </ConsoleLink>{' '}
      {problem.message}
    </>
  );
}

const stateLabel = { current: 'up to date', stale: 'stale', missing: 'missing' } as const;

/** A file's translation state per locale, as small labelled badges; with `pathOf`, each opens that translation. */
export function TranslationBadges({ translations, pathOf }: { translations: FileOut['translations']; pathOf?: (locale: string) => string }) {
  if (!translations) return null;
  return (
    <ul className="translation-badges" aria-label="Translations">
      {Object.entries(translations).map(([locale, state]) => {
        const label = (
          <>
            <span className="badge-locale">{locale}</span>
            <span className="visually-hidden">: {stateLabel[state]}</span>
            <span aria-hidden="true">{state === 'current' ? '✓' : state === 'stale' ? '!' : '–'}</span>
          </>
        );
        return (
          <li key={locale} className={`badge badge-${state}`} title={`${locale}: ${stateLabel[state]}`}>
            {pathOf ? (
              <ConsoleLink to="/admin/edit" query={{ path: pathOf(locale) }}>
                {label}
              </ConsoleLink>
            ) : (
              label
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** "3 minutes ago", in the browser's own words. */
export function timeAgo(when: string | number, now = Date.now()): string {
  const seconds = Math.round((new Date(when).getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 60) return format.format(seconds, 'second');
  if (abs < 3600) return format.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return format.format(Math.round(seconds / 3600), 'hour');
  return format.format(Math.round(seconds / 86400), 'day');
}

/** Form errors in the operations' own words ("message must not be empty"), for conform's zod parsing. */
export const formErrors = (issues: z.core.$ZodIssue[]) => issues.map((issue) => describeIssue(issue));
