// Compare with a role: a pasted job description read requirement by requirement against the profile (the
// match_role operation), each with its status and checked evidence, the closest lens and its honest gaps.
// With scripts the answer streams from the REST operation row by row; without them the form posts here and
// the action answers the finished table. Nothing the visitor pastes is kept.
import { json, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { isAppError } from '../../operations/contract/errors.ts';
import { JOB_DESCRIPTION_MAX, matchRole } from '../../operations/contract/match.ts';
import { pageLocale } from '../utils/data.server.ts';
import { read } from '../utils/operations.server.ts';
import { twinParts, type MarkdownTwin } from '../utils/discovery.server.ts';
import { pageMeta, rootData, rootTranslator, webPageJsonLd } from '../utils/seo.ts';
import { markdownTree } from '../markdown/tree.server.ts';
import { PageHeader } from '../components/Content.tsx';
import { useRoot, useT } from '../components/root-data.ts';
import { MatchForm } from '../match/MatchForm.tsx';
import { MatchResult } from '../match/MatchResult.tsx';
import { useMatch } from '../match/use-match.ts';
import { idleMatch, refusal, shownRequirements, type MatchProblem, type MatchState } from '../match/state.ts';
import type { RoleMatchData } from '../match/stream.ts';

export function loader({ params, request }: LoaderFunctionArgs) {
  pageLocale(params, request);
  // The limits the operation itself enforces, so that the form and the operation cannot disagree.
  return { descriptionMax: JOB_DESCRIPTION_MAX, roleMax: matchRole.input.shape.title.unwrap().maxLength ?? 200 };
}

/** The form post (no scripts): the finished comparison, or what was refused, with the text the visitor sent. */
export async function action({ params, request, context }: ActionFunctionArgs) {
  const locale = pageLocale(params, request);
  const form = await request.formData();
  // A browser posts a text area's line breaks as CR LF; the field counted them as one character each.
  const description = String(form.get('description') ?? '').replace(/\r\n?/g, '\n');
  const role = String(form.get('role') ?? '');
  try {
    const result = await read(context, 'match_role', { jobDescription: description, locale, ...(role.trim() ? { title: role } : {}) }, request);
    return json({ description, role, result, summary: markdownTree(result.summary), problem: null }, { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    if (!isAppError(error)) throw error;
    const retryAfter = error.headers?.['Retry-After'];
    const problem: MatchProblem = refusal(error.status, error.toBody(), Number(retryAfter) || 60, Date.now());
    return json(
      { description, role, result: null, summary: null, problem },
      { status: error.status, headers: { 'Cache-Control': 'no-store', ...(retryAfter ? { 'Retry-After': retryAfter } : {}) } },
    );
  }
}

// A posted comparison is the visitor's own (never kept by a cache), and a 429 says when to come back.
export const headers: HeadersFunction = ({ actionHeaders }) =>
  Object.fromEntries(['Cache-Control', 'Retry-After'].flatMap((name) => (actionHeaders.has(name) ? [[name, actionHeaders.get(name)!]] : [])));

export const meta: MetaFunction<typeof loader> = ({ matches, location }) => {
  const root = rootData(matches);
  if (!root) return [];
  const t = rootTranslator(root);
  const title = `${t('matchTitle')} · ${root.site.subject.name}`;
  return pageMeta(matches, location, { title, description: t('matchIntro'), jsonLd: webPageJsonLd(root, location.pathname, title, t('matchIntro')) });
};

export const markdown: MarkdownTwin<typeof loader> = (args) => {
  const { t, siteUrl } = args;
  const { footer } = twinParts(args);
  return [
    `# ${t('matchTitle')}`,
    '',
    t('matchIntro'),
    '',
    t('matchTwinApi', { endpoint: `${siteUrl}/api/v1/match`, openapi: `${siteUrl}/openapi.json`, mcp: `${siteUrl}/mcp` }),
    ...footer('/match'),
  ].join('\n');
};

export default function MatchPage() {
  const { descriptionMax, roleMax } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const { locale } = useRoot();
  const t = useT();
  const [description, setDescription] = useState(posted?.description ?? '');
  const [role, setRole] = useState(posted?.role ?? '');
  const [interactive, setInteractive] = useState(false);
  const [formProblem, setFormProblem] = useState<MatchProblem>();
  // A posted form's answer is where the comparison starts; a comparison in the browser replaces it.
  const { state, waitSeconds, start, stop } = useMatch(locale, initialState(posted));
  const requirements = shownRequirements(state);
  const problem = formProblem ?? state.problem;

  useEffect(() => setInteractive(true), []);

  // When the answer starts, bring its status line into view (the form stays where it is, its Stop button with it).
  const streaming = state.phase === 'streaming';
  useEffect(() => {
    if (streaming) document.getElementById('match-result')?.scrollIntoView({ block: 'nearest' });
  }, [streaming]);

  const onStart = () => {
    if (!description.trim()) {
      setFormProblem({ kind: 'invalid', field: 'description', reason: 'empty', message: '' });
      return false;
    }
    setFormProblem(undefined);
    void start(description, role);
    return true;
  };

  return (
    <div className="page match-page">
      <PageHeader title={t('matchTitle')} lead={t('matchIntro')} />
      <MatchForm
        description={description}
        role={role}
        onDescription={(value) => {
          setDescription(value);
          if (formProblem) setFormProblem(undefined);
        }}
        onRole={setRole}
        max={descriptionMax}
        roleMax={roleMax}
        problem={problem}
        streaming={streaming}
        waitSeconds={waitSeconds}
        interactive={interactive}
        onStart={onStart}
        onStop={stop}
      />
      {state.phase !== 'idle' && (streaming || state.phase === 'stopped' || state.result || requirements.length) ? (
        <MatchResult
          phase={state.phase}
          stage={state.stage}
          requirements={requirements}
          result={state.result}
          summary={posted?.summary && state.result === posted.result ? posted.summary : undefined}
          interactive={interactive}
        />
      ) : null}
    </div>
  );
}

function initialState(posted: { result: RoleMatchData | null; problem: MatchProblem | null } | undefined): MatchState {
  if (posted?.result) return { phase: 'done', requirements: posted.result.requirements, result: posted.result };
  if (posted?.problem) return { phase: 'failed', requirements: [], problem: posted.problem };
  return idleMatch;
}
