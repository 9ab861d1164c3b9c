// Publish: the pipeline runs of both branches (translate → build → deploy), each stage's status and
// duration updating while it runs, why a stage failed, a link to the site it publishes to; what promote
// will publish (dev's commits and each file's diff against main); Promote with a confirmation, then the
// run on main followed until it is live.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { useFetcher, useLoaderData, useRevalidator, useSearchParams } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { PUBLISHER_NEEDED, useMayPublish } from '../admin/account.tsx';
import { troubleFromBody } from '../admin/api.ts';
import { asEditor, attempt, branchOf, requireEditor } from '../admin/session.server.ts';
import type { DeployRunOut } from '../admin/types.ts';
import { Shortcut, TimeAgo, TroubleNotice } from '../admin/ui.tsx';
import { ComparedImage } from '../admin/ImageChange.tsx';
import { sizeInWords } from '../admin/media-store.ts';

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireEditor(request, context);
  const followed = new URL(request.url).searchParams.get('commit');
  const [dev, main, comparison, recent] = await Promise.all([
    asEditor(request, context, 'admin_deploy_status', { branch: 'dev', limit: 5 }),
    asEditor(request, context, 'admin_deploy_status', { branch: 'main', limit: 5 }),
    asEditor(request, context, 'admin_compare', { base: 'main', head: 'dev' }),
    // The commit just made, to name it in the confirmation.
    followed ? asEditor(request, context, 'admin_history', { branch: branchOf(request), limit: 10 }) : undefined,
  ]);
  const commit = recent?.commits.find((c) => followed && c.sha.startsWith(followed));
  return {
    runs: { dev: dev.runs, main: main.runs },
    comparison,
    commit: commit ? { sha: commit.sha, message: commit.message, branch: branchOf(request) } : null,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const message = String(form.get('message') ?? '').trim();
  return attempt(() => asEditor(request, context, 'admin_promote', message ? { message } : {}));
}

const active = (run: DeployRunOut) => run.status === 'queued' || run.status === 'running';

function seconds(from: string | null, to: string | null, now: number): string {
  if (!from) return '';
  const ms = (to ? Date.parse(to) : now) - Date.parse(from);
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}

function RunCard({ run, highlight, now }: { run: DeployRunOut; highlight: boolean; now: number }) {
  return (
    <li className={`run run-${run.status}${highlight ? ' run-highlight' : ''}`} aria-label={`Run ${run.id} on ${run.branch}: ${run.status}`}>
      <div className="run-head">
        <span className={`status status-${run.status}`}>{run.status}</span>
        <code>{run.commit.slice(0, 7)}</code>
        <span className="muted">
          <TimeAgo when={run.createdAt} now={now} />
          {run.by ? (
            <>
              {' '}
              by <strong>{run.by}</strong>
            </>
          ) : null}
        </span>
        {run.status === 'success' ? (
          <a href={run.siteUrl} target="_blank" rel="noreferrer">
            Open {run.branch === 'dev' ? 'the preview' : 'the live site'}
          </a>
        ) : null}
      </div>
      <ol className="stages">
        {run.stages.map((stage) => (
          <li key={stage.name} className={`stage stage-${stage.status}`}>
            <span className="stage-name">{stage.name}</span> <span className={`status status-${stage.status}`}>{stage.status}</span>{' '}
            <span className="muted">{seconds(stage.startedAt, stage.finishedAt, now)}</span>
            {stage.note ? <p className="stage-note">{stage.note}</p> : null}
          </li>
        ))}
      </ol>
      {run.error ? (
        <p className="field-error" role="alert">
          {run.error}
        </p>
      ) : null}
    </li>
  );
}

/** Promote, for a publisher; for an editor, why it is not theirs to do. */
function PromoteOffer({ onPromote }: { onPromote(): void }) {
  return useMayPublish() ? (
    <button type="button" className="button" onClick={onPromote}>
      Promote dev to main…
    </button>
  ) : (
    <div className="notice notice-warning needs-role" role="note">
      <p className="notice-title">Promote needs the publisher role</p>
      <p>{PUBLISHER_NEEDED} A publisher sees the same commits here, each with its author.</p>
    </div>
  );
}

export default function PublishPage() {
  const { runs, comparison, commit } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const followed = params.get('commit');
  const revalidator = useRevalidator();
  const promote = useFetcher<typeof action>();
  const dialog = useRef<HTMLDialogElement>(null);
  const [now, setNow] = useState(() => Date.now());
  const running = [...runs.dev, ...runs.main].some(active);
  const promoted = promote.data?.ok ? promote.data.value : undefined;

  // Follow the pipeline while anything runs (and right after a promote, until its run appears).
  useEffect(() => {
    if (!running && !(promoted && promoted.changed && !runs.main.some((r) => r.commit === promoted.commit.sha && !active(r)))) return;
    const timer = setInterval(() => {
      setNow(Date.now());
      if (revalidator.state === 'idle') revalidator.revalidate();
    }, 1000);
    return () => clearInterval(timer);
  }, [running, promoted, runs.main, revalidator]);

  useEffect(() => {
    if (promote.state === 'idle' && promote.data) dialog.current?.close();
  }, [promote.state, promote.data]);

  const promoteTrouble = promote.data && !promote.data.ok ? troubleFromBody(promote.data.status, promote.data.body, promote.data.retryAfter) : null;
  const mainLive = promoted ? runs.main.find((r) => r.commit === promoted.commit.sha) : undefined;

  return (
    <div className="console-page">
      <div className="page-head">
        <h1 tabIndex={-1}>Publish</h1>
        <p className="muted">
          Every commit runs translate → build → deploy. dev publishes to the preview; promote merges dev into main, which publishes to the live site.
        </p>
      </div>
      {followed ? (
        <div className="notice notice-success" role="status">
          <p>
            Committed <code>{followed.slice(0, 7)}</code>
            {commit ? (
              <>
                {' '}
                to {commit.branch}: “{commit.message}”
              </>
            ) : null}
            . Its publish run is highlighted below{running ? ' and updates as it goes' : ''}.
          </p>
        </div>
      ) : null}
      <div className="publish-grid">
        {(['dev', 'main'] as const).map((branch) => (
          <section key={branch} aria-labelledby={`runs-${branch}`}>
            <h2 id={`runs-${branch}`}>{branch === 'dev' ? 'dev → preview' : 'main → live site'}</h2>
            {runs[branch].length ? (
              <ol className="runs">
                {runs[branch].map((run) => (
                  <RunCard key={run.id} run={run} now={now} highlight={run.commit === followed || run.commit === promoted?.commit.sha} />
                ))}
              </ol>
            ) : (
              <p className="muted">No runs yet.</p>
            )}
          </section>
        ))}
      </div>

      <section aria-labelledby="promote-title" className="promote">
        <h2 id="promote-title">What promote will publish</h2>
        {comparison.aheadBy || comparison.files.length ? (
          <>
            <p>
              {comparison.aheadBy} commit{comparison.aheadBy === 1 ? '' : 's'} on dev that main does not have, changing {comparison.files.length} file
              {comparison.files.length === 1 ? '' : 's'}:
            </p>
            <ul className="compare-commits">
              {comparison.commits.map((c) => (
                <li key={c.sha}>
                  <code>{c.sha.slice(0, 7)}</code> {c.message}{' '}
                  <span className="muted">
                    (by <span className="commit-author">{c.author}</span>, <TimeAgo when={c.time} now={now} />)
                  </span>
                </li>
              ))}
            </ul>
            {comparison.files.map((file) => (
              <details key={file.path} className="compare-file">
                <summary>
                  <span className={`status status-${file.status}`}>{file.status}</span> <code>{file.path}</code>
                  {file.media ? <span className="muted"> binary image, {sizeInWords((file.media.after ?? file.media.before)?.size ?? 0)}</span> : null}
                </summary>
                {file.media ? <ComparedImage path={file.path} base={comparison.base} head={comparison.head} media={file.media} /> : null}
                <pre className="unified-diff" aria-label={`Diff of ${file.path}`} hidden={Boolean(file.media)}>
                  {file.diff
                    .split('\n')
                    .slice(4)
                    .map((line, i) => (
                      <span key={i} className={line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : line.startsWith('@@') ? 'hunk' : ''}>
                        {line}
                        {'\n'}
                      </span>
                    ))}
                </pre>
              </details>
            ))}
            <PromoteOffer onPromote={() => dialog.current?.showModal()} />
          </>
        ) : (
          <p className="muted">Nothing to promote: main has everything dev has.</p>
        )}
        {promoteTrouble ? <TroubleNotice trouble={promoteTrouble} /> : null}
        {promoted ? (
          <div className="notice" role="status">
            {promoted.merged ? (
              <p>
                Promoted{promoted.fastForward ? ' (fast-forward)' : ''}: main is at <code>{promoted.commit.sha.slice(0, 7)}</code>.{' '}
                {mainLive?.status === 'success' ? (
                  <>Live now.</>
                ) : mainLive?.status === 'failure' ? (
                  <>Its run failed; the live site still shows the previous version.</>
                ) : (
                  <>Publishing to the live site…</>
                )}
              </p>
            ) : (
              <p>Nothing to promote: main already has everything on dev.</p>
            )}
          </div>
        ) : null}
      </section>

      <dialog ref={dialog} aria-labelledby="confirm-title" className="confirm">
        <promote.Form method="post">
          <h2 id="confirm-title">Publish dev to the live site?</h2>
          <p>
            {comparison.aheadBy} commit{comparison.aheadBy === 1 ? '' : 's'} and {comparison.files.length} changed file
            {comparison.files.length === 1 ? '' : 's'} go live on main.
          </p>
          <label htmlFor="promote-message">Why it is published (optional)</label>
          <input id="promote-message" name="message" maxLength={500} placeholder="Promote dev to main" aria-describedby="promote-message-hint" />
          <p id="promote-message-hint" className="muted">
            The merge commit’s message when main has moved; otherwise dev’s commits go live as they are and the audit trail keeps it.
          </p>
          <div className="actions">
            <button type="submit" className="button" disabled={promote.state !== 'idle'}>
              {promote.state !== 'idle' ? 'Promoting…' : 'Promote'}
            </button>
            <button type="button" className="button ghost" onClick={() => dialog.current?.close()}>
              Cancel <Shortcut keys="Escape" />
            </button>
          </div>
        </promote.Form>
      </dialog>
    </div>
  );
}
