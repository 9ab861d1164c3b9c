// The finished comparison as Markdown, for "Copy as Markdown": the summary, one table per group of
// requirements (requirement, status, evidence with its quote), the closest lens and its honest gaps, and the
// notes the page shows. Links are absolute, so the text still works pasted elsewhere.
import type { Translate } from '../i18n/messages.ts';
import { sitePath } from '../i18n/locales.ts';
import type { RequirementData, RoleMatchData } from './stream.ts';

const statusMark = { met: '✓', partial: '◐', gap: '✗' } as const;

/** Text inside a table cell: one line, pipes escaped. */
const cell = (s: string) => s.replace(/\s+/g, ' ').replace(/\\/g, '\\\\').replace(/\|/g, '\\|').trim();
/** Text inside a link label. */
const label = (s: string) => cell(s).replace(/([[\]])/g, '\\$1');

export function matchMarkdown(result: RoleMatchData, t: Translate, siteUrl: string): string {
  const link = (url: string) => `${siteUrl}${sitePath(url, siteUrl)}`;
  const row = (r: RequirementData) => {
    const evidence = r.evidence.map((e) => `[${label(e.title)}](${link(e.url)}): “${cell(e.quote)}”`);
    if (r.honestGap) evidence.push(`${t('matchHonestGapLabel')}: ${cell(r.honestGap)}`);
    return `| ${cell(r.text)} | ${statusMark[r.status]} ${t(`matchStatus.${r.status}`)} | ${evidence.join('<br>') || '—'} |`;
  };
  const table = (heading: string, rows: RequirementData[]) =>
    rows.length
      ? [
          `## ${heading}`,
          '',
          `| ${t('matchColRequirement')} | ${t('matchColStatus')} | ${t('matchColEvidence')} |`,
          '| --- | --- | --- |',
          ...rows.map(row),
          '',
        ]
      : [];
  const { met, partial, gap } = result.counts;
  return [
    `# ${result.title ? t('matchResultFor', { role: cell(result.title) }) : t('matchResult')}`,
    '',
    ...(result.mode === 'search' ? [`> ${t('matchSearchForm')}`, ''] : []),
    ...(result.removed > 0 ? [`> ${t('matchRemoved', { n: result.removed })}`, ''] : []),
    t('matchCounts', { met, partial, gap }),
    '',
    ...(result.summary.trim() ? [result.summary.trim(), ''] : []),
    ...table(
      t('matchMust'),
      result.requirements.filter((r) => r.kind === 'must'),
    ),
    ...table(
      t('matchNice'),
      result.requirements.filter((r) => r.kind === 'nice'),
    ),
    ...(result.lens ? [`## ${t('matchLens')}: [${label(result.lens.title)}](${link(result.lens.url)})`, ''] : []),
    ...(result.gaps.length ? [`### ${t('matchLensGaps')}`, '', ...result.gaps.map((g) => `- ${cell(g)}`), ''] : []),
  ]
    .join('\n')
    .trimEnd()
    .concat('\n');
}
