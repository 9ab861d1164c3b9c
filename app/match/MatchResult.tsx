// The comparison on the page: must-haves and nice-to-haves as two tables (requirement, status as a word and an
// icon, the evidence linked with its quote), filled row by row while the stream runs; then the counts, the
// summary, the closest lens and its honest gaps, and the notes (search-only form, evidence removed by the check).
import { lazy, Suspense, useState } from 'react';
import { Markdown, type MarkdownTree } from '../markdown/Markdown.tsx';
import { Icon, type IconName } from '../components/Icons.tsx';
import { useRoot, useT } from '../components/root-data.ts';
import { sitePath } from '../i18n/locales.ts';
import type { Translate } from '../i18n/messages.ts';
import { matchMarkdown } from './markdown.ts';
import type { MatchStage, MatchStatus, RequirementData, RoleMatchData } from './stream.ts';

// The Markdown parser comes only with a streamed answer's summary; a posted form's summary was parsed on the server.
const MarkdownText = lazy(() => import('../markdown/MarkdownText.tsx').then((m) => ({ default: m.MarkdownText })));

export const statusIcon: Record<MatchStatus, IconName> = { met: 'check', partial: 'partial', gap: 'gap' };

export interface MatchResultProps {
  phase: 'streaming' | 'done' | 'stopped' | 'failed';
  stage?: MatchStage;
  requirements: RequirementData[];
  result?: RoleMatchData;
  /** The summary parsed on the server (the form post); parsed here otherwise. */
  summary?: MarkdownTree;
  /** The page runs its scripts: copy and print work. */
  interactive: boolean;
}

export function MatchResult({ phase, stage, requirements, result, summary, interactive }: MatchResultProps) {
  const t = useT();
  const must = requirements.filter((r) => r.kind === 'must');
  const nice = requirements.filter((r) => r.kind === 'nice');
  const heading = result?.title ? t('matchResultFor', { role: result.title }) : t('matchResult');
  return (
    <section id="match-result" className="match-result" aria-labelledby="match-result-heading">
      <div className="match-result-head">
        <h2 id="match-result-heading">{heading}</h2>
        {result && interactive ? <MatchTools result={result} /> : null}
      </div>
      <p className="match-status">
        {phase === 'streaming' ? <span className="spinner" aria-hidden="true" /> : null}
        {/* Stages and the outcome are announced; the count, growing with every row, is only shown. */}
        <span role="status" data-testid="match-status">
          {statusLine(t, phase, stage, requirements.length, result)}
        </span>
        {phase === 'streaming' && requirements.length ? <span className="match-progress">{t('matchProgress', { n: requirements.length })}</span> : null}
      </p>
      {result ? <MatchOverview result={result} summary={summary} /> : null}
      {must.length ? <RequirementTable id="match-must" title={t('matchMust')} rows={must} /> : null}
      {nice.length ? <RequirementTable id="match-nice" title={t('matchNice')} rows={nice} /> : null}
      {result && !requirements.length ? <p className="empty">{t('matchNoRequirements')}</p> : null}
      {result?.gaps.length ? (
        <section className="match-gaps" aria-labelledby="match-gaps-heading">
          <h3 id="match-gaps-heading">{t('matchLensGaps')}</h3>
          <p className="section-intro">{t('matchLensGapsIntro')}</p>
          <ul className="bullets">
            {result.gaps.map((gap, i) => (
              <li key={i}>{gap}</li>
            ))}
          </ul>
        </section>
      ) : null}
    </section>
  );
}

function statusLine(t: Translate, phase: MatchResultProps['phase'], stage: MatchStage | undefined, shown: number, result?: RoleMatchData): string {
  if (phase === 'done') return t('matchDone', { n: result?.requirements.length ?? shown });
  if (phase === 'stopped') return t('matchStopped', { n: shown });
  if (phase === 'failed') return t('matchCut', { n: shown });
  return t(`matchStage.${stage ?? 'reading'}`);
}

function MatchOverview({ result, summary }: { result: RoleMatchData; summary?: MarkdownTree }) {
  const t = useT();
  const { siteUrl } = useRoot();
  const { counts } = result;
  return (
    <div className="match-overview">
      {result.mode === 'search' ? (
        <p className="match-note" data-testid="match-search-form">
          <Icon name="search" size={16} />
          <span>{t('matchSearchForm')}</span>
        </p>
      ) : null}
      {result.removed > 0 ? (
        <p className="match-note" data-testid="match-removed">
          <Icon name="warning" size={16} />
          <span>{t('matchRemoved', { n: result.removed })}</span>
        </p>
      ) : null}
      <ul className="match-counts" aria-label={t('matchCountsLabel')}>
        {(['met', 'partial', 'gap'] as const).map((status) => (
          <li key={status} className={`status-${status}`}>
            <Icon name={statusIcon[status]} size={16} />
            <strong>{counts[status]}</strong> {t(`matchStatus.${status}`)}
          </li>
        ))}
      </ul>
      {result.summary.trim() ? (
        <div className="match-summary">
          {summary ? (
            <Markdown tree={summary} />
          ) : (
            <Suspense fallback={<p className="prose">{result.summary}</p>}>
              <MarkdownText source={result.summary} />
            </Suspense>
          )}
        </div>
      ) : null}
      {result.lens ? (
        <p className="match-lens">
          {t('matchLens')}: <a href={sitePath(result.lens.url, siteUrl)}>{result.lens.title}</a>
        </p>
      ) : null}
    </div>
  );
}

function RequirementTable({ id, title, rows }: { id: string; title: string; rows: RequirementData[] }) {
  const t = useT();
  return (
    <section className="match-group" aria-labelledby={`${id}-heading`} data-testid={id}>
      <h3 id={`${id}-heading`}>{title}</h3>
      <div className="match-table-wrap">
        <table className="match-table">
          <thead>
            <tr>
              <th scope="col">{t('matchColRequirement')}</th>
              <th scope="col">{t('matchColStatus')}</th>
              <th scope="col">{t('matchColEvidence')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <RequirementRow key={i} requirement={r} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function RequirementRow({ requirement: r }: { requirement: RequirementData }) {
  const t = useT();
  const { siteUrl } = useRoot();
  return (
    <tr className={`status-${r.status}`}>
      <td className="match-requirement">
        {r.text}
        {r.note ? <span className="match-why">{r.note}</span> : null}
      </td>
      <td className="match-status-cell">
        <span className={`match-badge status-${r.status}`}>
          <Icon name={statusIcon[r.status]} size={16} />
          {t(`matchStatus.${r.status}`)}
        </span>
        {r.confidence !== undefined ? <span className="match-confidence">{t('matchConfidence', { p: r.confidence })}</span> : null}
      </td>
      <td className="match-evidence">
        <span className="match-cell-label" aria-hidden="true">
          {t('matchColEvidence')}
        </span>
        {r.evidence.length ? (
          <ul>
            {r.evidence.map((e, i) => (
              <li key={`${e.slug}-${i}`}>
                <a href={sitePath(e.url, siteUrl)}>{e.title}</a>
                {e.quote ? <q>{e.quote}</q> : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="match-none">{t('matchNoEvidence')}</p>
        )}
        {r.honestGap ? (
          <p className="match-honest-gap">
            <strong>{t('matchHonestGapLabel')}:</strong> {r.honestGap}
          </p>
        ) : null}
      </td>
    </tr>
  );
}

/** Copy as Markdown and Print: only once the page runs its scripts (without them the browser's own print works). */
function MatchTools({ result }: { result: RoleMatchData }) {
  const t = useT();
  const { siteUrl } = useRoot();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(matchMarkdown(result, t, siteUrl));
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="match-tools">
      <button type="button" className="chip" onClick={() => void copy()}>
        <Icon name={copied ? 'check' : 'copy'} size={16} />
        {copied ? t('matchCopied') : t('matchCopy')}
      </button>
      <button type="button" className="chip" onClick={() => window.print()}>
        <Icon name="print" size={16} />
        {t('matchPrint')}
      </button>
    </div>
  );
}
