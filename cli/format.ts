// The human formatters, one per output shape (the output schema's id). They are the only hand-written part
// of the commands; `--json` bypasses them and prints the API body as it came.
import type { z } from 'zod';
import type { EntryList, EntryLongOut, LensListOut, LensOut, SearchResultsOut, DocumentOut, SiteOut } from './shapes.ts';
import type {
  AiEditProposalOut,
  AnswerOut,
  RoleMatchOut,
  ChangeSetCheckOut,
  CommitResultOut,
  ComparisonOut,
  ContentFileOut,
  ContentSchemaOut,
  DeployRunOut,
  DeployRunsOut,
  FileListOut,
  HistoryOut,
  PreviewOut,
  PromoteResultOut,
  TranslationDraftsOut,
  TranslationStatusOut,
  ValidationResultOut,
} from './shapes.ts';
import { createTwoFilesPatch } from 'diff';
import { UNTRANSLATED } from '../operations/contract/vocabulary.ts';
import { entryBody, lensBody } from '../operations/contract/resources.ts';
import { labels } from '../operations/contract/labels.ts';
import type { Problem } from '../operations/contract/errors.ts';
import type { Colours } from './colour.ts';
import { renderMarkdown } from './markdown.ts';
import { renderTable } from './table.ts';
import { accountFormatters } from './format-accounts.ts';
import type { Rendered, View } from './view.ts';

export type { Rendered, View } from './view.ts';

type Formatter = (body: any, view: View) => Rendered;

const markdown = (text: string, view: View) =>
  view.width ? renderMarkdown(text, { width: Math.min(view.width, 100), colours: view.colours }) : text.endsWith('\n') ? text : text + '\n';

const fellBack = (record: { locale: string; translated: boolean }, view: View) =>
  record.translated ? '' : view.colours.dim(`(no current ${record.locale} translation; shown in English)`) + '\n';

/** An empty list of runs names the branch it is of, and the other one, where the runs may be. */
const noRuns = (branch: string) => {
  const other = branch === 'main' ? 'dev' : 'main';
  return `No runs yet on ${branch}. ${other}’s: vitae admin deploys --branch ${other}\n`;
};

export const formatters: Record<string, Formatter> = {
  ...accountFormatters,
  Brief: (body: { markdown: string; locale: string; translated: boolean }, view) => ({
    out: markdown(body.markdown, view),
    note: fellBack(body, view) || undefined,
  }),

  EntryList: (body: EntryList, view) => ({
    out: body.entries.length
      ? renderTable(
          body.entries,
          [
            { header: 'SLUG', value: (e) => e.slug, style: (t) => view.colours.cyan(t) },
            { header: 'KIND', value: (e) => labels[e.locale][`kind.${e.kind}`] },
            { header: 'PERIOD', value: (e) => e.period.label },
            { header: 'TITLE', value: (e) => `${e.title}${e.title.includes(e.organisation) ? '' : ` — ${e.organisation}`}`, flex: true },
          ],
          view,
        )
      : 'No entries match.\n',
    note: body.next
      ? `${body.entries.length} of ${body.total} entries · next page: vitae list --cursor ${body.next} --limit ${body.entries.length}`
      : `${body.total} ${body.total === 1 ? 'entry' : 'entries'}${body.entries.length ? ' · vitae get <slug> for one in full' : ''}`,
  }),

  EntryLong: (e: EntryLongOut, view) => {
    const c = view.colours;
    // The entry as the MCP resource gives it (headings in its locale), then its vocabulary and address.
    const md = `${entryBody(e)}\nTags: ${e.tags.join(', ') || '—'} · Lenses: ${e.lenses.join(', ') || '—'}\n\n${e.url}\n`;
    return { out: markdown(md, view), note: fellBack(e, view) ? c.dim(`(no current ${e.locale} translation of ${e.slug}; shown in English)`) : undefined };
  },

  LensList: (body: LensListOut, view) => ({
    out: renderTable(
      body.lenses,
      [
        { header: 'LENS', value: (l) => l.id, style: (t) => view.colours.cyan(t) },
        { header: 'TITLE', value: (l) => l.title },
        { header: 'EVIDENCE', value: (l) => String(l.evidence.entries), align: 'right' },
        { header: 'GAPS', value: (l) => String(l.honestGaps.length), align: 'right' },
        { header: 'PITCH', value: (l) => firstSentence(l.pitch), flex: true },
      ],
      view,
    ),
    note: `${body.lenses.length} lenses · vitae lens <id> for one in full · vitae list --lens <id> for the entries behind one`,
  }),

  // The lens as its MCP resource gives it, then its address and the command listing its evidence.
  Lens: (l: LensOut, view) => ({
    out: markdown(`${lensBody(l)}\n${l.url}\n`, view),
    note:
      (fellBack(l, view) ? view.colours.dim(`(no current ${l.locale} translation of ${l.id}; shown in English)`) + ' · ' : '') +
      `vitae list --lens ${l.id}${l.locale === 'en' ? '' : ` --locale ${l.locale}`} for the entries behind it`,
  }),

  SearchResults: (body: SearchResultsOut, view) => ({
    out: body.results.length
      ? renderTable(
          body.results,
          [
            { header: 'SCORE', value: (r) => r.score.toFixed(2), align: 'right' },
            { header: 'SLUG', value: (r) => r.slug, style: (t) => view.colours.cyan(t) },
            { header: 'KIND', value: (r) => r.kind },
            { header: 'PASSAGE', value: (r) => r.passage, flex: true },
          ],
          view,
        )
      : `Nothing matches "${body.query}".\n`,
  }),

  Site: (site: SiteOut, view) => {
    const c = view.colours;
    const lines = [
      `${c.bold(site.name)}  ${c.dim(site.url)}`,
      `${site.subject.name} · ${site.subject.headline}${site.subject.location ? ` · ${site.subject.location}` : ''}${site.subject.country ? ` (${site.subject.country})` : ''}`,
      ...(site.notice ? [c.yellow(site.notice)] : []),
      '',
      ...(site.contact.email ? [`email    ${site.contact.email}`] : []),
      ...site.links.map((l) => `link     ${l.label}: ${l.url}`),
      `locales  ${site.locales.join(', ')} (default ${site.defaultLocale})`,
      `skills   ${site.skills.map((s) => s.name).join(', ')}`,
      `content  ${site.content.commit.slice(0, 7)} committed ${site.content.committedAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, '')}, built ${site.content.builtAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, '')}`,
      `pages    ${site.pages.length}`,
    ];
    return { out: lines.join('\n') + '\n', note: 'vitae site --json for every page with the time it last changed' };
  },

  Document: (d: DocumentOut, view) => ({ out: markdown(`# ${d.title}\n\n${d.markdown}`, view), note: fellBack(d, view) || undefined }),

  ContentSchema: (s: ContentSchemaOut, view) => {
    const c = view.colours;
    const lines: string[] = [];
    for (const kind of s.fileKinds) {
      lines.push(c.bold(`${kind.kind}`) + c.dim(`  ${kind.pattern}`), `  body: ${kind.body}`);
      for (const f of kind.fields) {
        const allowed = f.allowed?.length ? ` (${f.allowed.join(', ')})` : '';
        lines.push(
          `  ${f.required ? c.cyan(f.name) : f.name}${f.required ? '' : '?'}: ${f.type}${allowed}${f.description ? c.dim(` — ${f.description}`) : ''}`,
        );
        for (const rule of f.rules ?? []) lines.push(c.dim(`      ${rule}`));
      }
      lines.push('');
    }
    const list = (title: string, items: readonly string[]) => lines.push(`${c.bold(title)}: ${items.join(', ')}`);
    list('kinds', s.kinds);
    list('tags', s.tags);
    list('lenses', s.lenses);
    list('documents', s.documents);
    list('locales', s.locales);
    list('skills', s.skills);
    list('writable', s.writablePaths);
    lines.push('', c.bold('conventions'), ...s.conventions.map((x) => `  - ${x}`));
    return { out: lines.join('\n') + '\n' };
  },

  FileList: (body: FileListOut, view) => {
    // A search (`--q`) shows where each file matched instead of its size and sha.
    const searched = view.input.q !== undefined;
    return {
      out: body.files.length
        ? renderTable(
            body.files,
            searched
              ? [
                  { header: 'PATH', value: (f) => f.path },
                  { header: 'LINE', value: (f) => (f.match ? String(f.match.line) : ''), align: 'right' },
                  { header: 'MATCH', value: (f) => f.match?.text ?? f.title ?? '', flex: true },
                ]
              : [
                  { header: 'PATH', value: (f) => f.path, flex: true },
                  { header: 'SIZE', value: (f) => String(f.size), align: 'right' },
                  { header: 'SHA', value: (f) => f.sha.slice(0, 12), style: (t) => view.colours.dim(t) },
                  {
                    header: 'TRANSLATIONS',
                    value: (f) => translationSummary(f.translations),
                    style: (t) => (/stale|missing/.test(t) ? view.colours.yellow(t) : view.colours.dim(t)),
                  },
                ],
            view,
          )
        : searched
          ? `Nothing on ${body.branch} matches "${String(view.input.q)}".\n`
          : 'No files.\n',
      note: body.truncated
        ? `the first ${body.files.length} matching files on ${body.branch}; search for more words to narrow it`
        : `${body.files.length} files on ${body.branch}`,
    };
  },

  History: (body: HistoryOut, view) => ({
    out: body.commits.length
      ? renderTable(
          body.commits,
          [
            { header: 'COMMIT', value: (c) => c.sha.slice(0, 7), style: (t) => view.colours.cyan(t) },
            { header: 'TIME', value: (c) => c.time.slice(0, 16).replace('T', ' ') },
            { header: 'AUTHOR', value: (c) => c.author },
            { header: 'FILES', value: (c) => String(c.files.length), align: 'right' },
            { header: 'MESSAGE', value: (c) => c.message, flex: true },
          ],
          view,
        )
      : 'No commits.\n',
    note: body.next ? `more: --cursor ${body.next}` : undefined,
  }),

  Preview: (body: PreviewOut, view) => {
    if (!body.kind) return { out: formatProblems(body.problems, '', view.colours) + '\n', exitCode: 6, note: 'the file cannot be published as it is' };
    if (body.entry) return formatters.EntryLong!(body.entry, view);
    if (body.lens) return formatters.LensList!({ lenses: [body.lens] }, view);
    if (body.document) return formatters.Document!(body.document, view);
    if (body.brief) return { out: markdown(body.brief.markdown, view) };
    return { out: `${body.path} is a ${body.kind} file: it has no page of its own.\n` };
  },

  Comparison: (body: ComparisonOut, view) => {
    const c = view.colours;
    if (!body.files.length && !body.aheadBy) return { out: `${body.head} has nothing that ${body.base} lacks.\n` };
    const commits = body.commits.map((x) => `  ${c.cyan(x.sha.slice(0, 7))} ${x.message}`).join('\n');
    const files = body.files.map((f) => `  ${f.status === 'added' ? c.green('A') : f.status === 'deleted' ? c.red('D') : c.yellow('M')} ${f.path}`).join('\n');
    return {
      out: `${c.bold(`${body.aheadBy} commit${body.aheadBy === 1 ? '' : 's'} on ${body.head} that ${body.base} lacks`)}\n${commits}\n\n${c.bold(`${body.files.length} file${body.files.length === 1 ? '' : 's'} changed`)}\n${files}\n`,
      note: 'vitae admin compare --json for each file’s diff',
    };
  },

  // The raw source goes to stdout untouched so `vitae admin get x > x.md` round-trips; the sha goes to
  // stderr because a later `put --sha` needs it.
  ContentFile: (file: ContentFileOut, view) => ({
    out: file.content,
    note: view.colours.dim(`${file.path} on ${file.branch} at ${file.ref.slice(0, 7)} · sha ${file.sha}`),
  }),

  ValidationResult: (result: ValidationResultOut, view) =>
    result.valid
      ? { out: `${view.colours.green('✓')} ${String(view.input.path ?? 'content')} is valid\n` }
      : {
          out: formatProblems(result.problems, String(view.input.path ?? ''), view.colours) + '\n',
          exitCode: 6,
          note: `${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}`,
        },

  CommitResult: (result: CommitResultOut, view) => ({ out: formatCommit(result, view.colours) }),

  MediaUpload: (result: CommitResultOut & { path: string; sha: string; type: string; width: number; height: number; size: number }, view) => ({
    out: `${result.path}  ${result.type} ${result.width}×${result.height}, ${result.size} bytes  ${view.colours.dim(result.sha.slice(0, 12))}\n${formatCommit(result, view.colours)}`,
  }),

  PromoteResult: (result: PromoteResultOut, view) =>
    result.merged
      ? { out: `Promoted dev into main${result.fastForward ? ' (fast-forward)' : ''}.\n` + formatCommit(result, view.colours) }
      : { out: 'Nothing to promote: main already has everything on dev.\n' },

  // `vitae ask` streams through /api/chat instead (cli/extras.ts); this is the shape of the ask body itself.
  Answer: (body: AnswerOut, view) => ({
    out:
      markdown(body.answer, view) +
      (body.sources.length
        ? '\n' +
          view.colours.bold('Sources') +
          '\n' +
          body.sources.map((s) => `  ${view.colours.cyan(s.slug)}  ${s.title}  ${view.colours.dim(s.url)}`).join('\n') +
          '\n'
        : ''),
  }),

  RoleMatch: (body: RoleMatchOut, view) => {
    const c = view.colours;
    // The site's words for the groups and verdicts, in the locale of the answer.
    const label = labels[body.locale];
    const verdict = (status: 'met' | 'partial' | 'gap') => label[`matchStatus.${status}`];
    const width = Math.max(...(['met', 'partial', 'gap'] as const).map((status) => verdict(status).length));
    const mark = {
      met: c.green(`✓ ${verdict('met').padEnd(width)}`),
      partial: c.yellow(`~ ${verdict('partial').padEnd(width)}`),
      gap: c.red(`✗ ${verdict('gap').padEnd(width)}`),
    };
    const group = (kind: 'must' | 'nice', heading: string) => {
      const rows = body.requirements.filter((r) => r.kind === kind);
      if (!rows.length) return '';
      return (
        c.bold(heading) +
        '\n' +
        rows
          .map((r) => {
            const lines = [`  ${mark[r.status]}  ${r.text}`];
            for (const e of r.evidence) lines.push(`      ${c.cyan(e.slug)}  “${e.quote}”`);
            if (r.honestGap) lines.push(c.dim(`      ${label.matchHonestGapLabel}: ${r.honestGap}`));
            if (r.note) lines.push(c.dim(`      ${r.note}`));
            return lines.join('\n');
          })
          .join('\n') +
        '\n\n'
      );
    };
    const lens = body.lens ? `${c.bold(label.matchLens)}  ${body.lens.title}  ${c.dim(body.lens.url)}\n` : '';
    return {
      out: group('must', label.matchMust) + group('nice', label.matchNice) + lens + '\n' + markdown(body.summary, view),
      note:
        [
          body.mode === 'search' ? 'Matched by search: no model is configured on this site.' : '',
          body.removed
            ? `${body.removed} piece${body.removed === 1 ? '' : 's'} of evidence the model gave could not be found in the cited records and were removed.`
            : '',
        ]
          .filter(Boolean)
          .join(' ') || undefined,
    };
  },

  AiEditProposal: (body: AiEditProposalOut, view) => {
    const c = view.colours;
    const diff = body.diff
      .split('\n')
      .map((l) => colourDiffLine(l, c))
      .join('\n');
    const problems = body.problems.length ? formatProblems(body.problems, body.path, c) + '\n' : '';
    return {
      out: (body.diff.trim() ? diff.replace(/\n?$/, '\n') : 'The model proposed no change.\n') + problems,
      note: body.problems.length
        ? `${body.problems.length} problem${body.problems.length === 1 ? '' : 's'} in the proposal; nothing was written.`
        : `Nothing was written. To apply it, save the proposal (add --json and take .proposed) and run: vitae admin put ${body.path} <file> -m <message>${body.baseSha ? ` --sha ${body.baseSha}` : ''}`,
      exitCode: body.problems.length ? 6 : undefined,
    };
  },

  TranslationDrafts: (body: TranslationDraftsOut, view) => {
    const c = view.colours;
    const drafts = body.drafts.map((d) => `${c.bold(`# ${d.path}`)}\n${d.content}${d.problems.length ? formatProblems(d.problems, d.path, c) + '\n' : ''}`);
    const failures = body.failures.map((f) => `${c.red('✗')} ${f.path}: ${f.message}`);
    const problems = body.drafts.reduce((n, d) => n + d.problems.length, 0);
    return {
      out: drafts.join('\n') + (failures.length ? `${failures.join('\n')}\n` : '') || `Every translation of ${body.path} is current: nothing to draft.\n`,
      note:
        `${body.drafts.length} draft${body.drafts.length === 1 ? '' : 's'} of ${body.path} (source ${body.sourceHash})` +
        `${body.failures.length ? `, ${body.failures.length} failed` : ''}${problems ? `, ${problems} problem${problems === 1 ? '' : 's'}` : ''}; nothing was written.` +
        (body.drafts.length ? ' Save each (--json, .drafts[].content) and commit them with vitae admin commit.' : ''),
      exitCode: problems ? 6 : body.failures.length && !body.drafts.length ? 9 : undefined,
    };
  },

  TranslationStatus: (body: TranslationStatusOut, view) => {
    const c = view.colours;
    const state = body.state === 'current' ? c.green(body.state) : c.yellow(body.state);
    const head = `${c.bold(body.path)}: ${state} (${body.locale} translation of ${body.sourcePath})\n`;
    const hashes = `recorded source ${body.recordedSource ?? '—'} · English now ${body.currentSource ?? '—'}\n`;
    if (body.state !== 'stale') return { out: head + hashes };
    if (body.source.now === null) return { out: head + hashes, note: `the English, ${body.sourcePath}, does not exist on this branch` };
    if (body.recordedSource === UNTRANSLATED) return { out: head + hashes, note: 'started from the English and not translated yet' };
    if (body.source.then === null) return { out: head + hashes, note: 'the English it was made from is not in the last 100 commits of its history' };
    const diff = createTwoFilesPatch(body.sourcePath, body.sourcePath, body.source.then, body.source.now, body.source.thenCommit!.slice(0, 7), 'now');
    return {
      out: `${head}${hashes}\n${diff
        .split('\n')
        .map((l) => colourDiffLine(l, c))
        .join('\n')}`,
      note: 'what changed in the English since the translation was made',
    };
  },

  ChangeSetCheck: (body: ChangeSetCheckOut, view) => {
    const c = view.colours;
    const mark = { added: c.green('A'), modified: c.yellow('M'), deleted: c.red('D') };
    const files = body.files.map((f) => `  ${mark[f.status]} ${f.path}${f.cascade ? c.dim(' (a translation of a deleted file)') : ''}`).join('\n');
    return body.valid
      ? { out: `${c.green('✓')} the change set is valid; committing it touches:\n${files}\n` }
      : {
          out: formatProblems(body.problems, '', c) + '\n',
          exitCode: 6,
          note: `${body.problems.length} problem${body.problems.length === 1 ? '' : 's'}; nothing would be committed`,
        };
  },

  DeployRuns: (body: DeployRunsOut, view) => ({
    out: body.runs.length
      ? renderTable(
          body.runs,
          [
            { header: 'RUN', value: (r) => r.id, style: (t) => view.colours.dim(t) },
            { header: 'BRANCH', value: (r) => r.branch },
            { header: 'COMMIT', value: (r) => r.commit.slice(0, 7) },
            { header: 'STATUS', value: (r) => r.status, style: (t, r) => statusColour(r.status, view.colours)(t) },
            { header: 'STAGES', value: (r) => stagesSummary(r) },
            { header: 'CREATED', value: (r) => r.createdAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, '') },
            ...(body.runs.some((r) => r.by) ? [{ header: 'BY', value: (r: DeployRunOut) => r.by ?? '' }] : []),
            ...(body.runs.some((r) => r.error) ? [{ header: 'ERROR', value: (r: DeployRunOut) => r.error ?? '', flex: true }] : []),
          ],
          view,
        )
      : noRuns(String(view.input.branch ?? 'main')),
  }),
};

/** One line of a unified diff in colour: file names bold, additions green, removals red, hunks cyan. */
export const colourDiffLine = (line: string, c: Colours): string =>
  line.startsWith('+++') || line.startsWith('---')
    ? c.bold(line)
    : line.startsWith('+')
      ? c.green(line)
      : line.startsWith('-')
        ? c.red(line)
        : line.startsWith('@@')
          ? c.cyan(line)
          : line;

export function formatProblems(problems: readonly Problem[], fallbackPath: string, c: Colours): string {
  return problems
    .map((p) => {
      const where = `${p.path ?? fallbackPath}${p.line ? `:${p.line}` : ''}`;
      return `${where ? c.bold(where) + ': ' : ''}${p.message}${p.pointer && !p.line ? c.dim(` (${p.pointer})`) : ''}`;
    })
    .join('\n');
}

function formatCommit(result: CommitResultOut, c: Colours): string {
  const lines = [`Committed ${c.yellow(result.commit.sha.slice(0, 7))} to ${c.bold(result.branch)}: ${result.commit.message.split('\n')[0]}`];
  for (const f of result.files) lines.push(`  ${f.sha === null ? c.red('deleted') : c.green('written')}  ${f.path}`);
  if (result.commit.url) lines.push(c.dim(result.commit.url));
  return lines.join('\n') + '\n';
}

const stageMark: Record<string, string> = { success: '✓', partial: '~', failure: '✗', running: '…', queued: '·', skipped: '-', cancelled: '✗' };

export const stagesSummary = (run: DeployRunOut) => run.stages.map((s) => `${s.name}${stageMark[s.status] ?? '?'}`).join(' ');

export function statusColour(status: string, c: Colours): (text: string) => string {
  if (status === 'success') return c.green;
  if (status === 'failure' || status === 'cancelled') return c.red;
  if (status === 'running') return c.yellow;
  return c.dim;
}

const firstSentence = (text: string) => /^(.+?[.!?])(\s|$)/.exec(text.replace(/\s+/g, ' '))?.[1] ?? text;

/** The formatter of an operation's output, by its schema id; unknown shapes print as indented JSON. */
export function formatterFor(output: z.ZodType): Formatter {
  const id = output.meta()?.id;
  return (id && formatters[id]) || ((body) => ({ out: JSON.stringify(body, null, 2) + '\n' }));
}

/** "ja ✓ · fr stale · es missing": the locales that need work, or "all current". */
function translationSummary(states: FileListOut['files'][number]['translations']): string {
  if (!states) return '';
  const entries = Object.entries(states);
  const behind = entries.filter(([, state]) => state !== 'current');
  return behind.length ? behind.map(([locale, state]) => `${locale} ${state}`).join(', ') : 'all current';
}
