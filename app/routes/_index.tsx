import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { callOperation } from '../utils/operations.server';

interface EntryShort { slug: string; kind: string; title: string; organisation: string; summary: string; period: { label: string }; url: string }

export async function loader({ context }: LoaderFunctionArgs) {
  const [brief, list] = await Promise.all([
    callOperation<{ markdown: string }>(context, 'get_brief'),
    callOperation<{ entries: EntryShort[] }>(context, 'list_experience'),
  ]);
  const title = /^#\s+(.+)$/m.exec(brief.markdown)?.[1];
  return { title, brief: brief.markdown, entries: list.entries };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'Vitae' }];

export default function Index() {
  const { brief, entries } = useLoaderData<typeof loader>();
  return (
    <main>
      <article style={{ whiteSpace: 'pre-wrap' }}>{brief}</article>
      <h2>Entries</h2>
      <ul className="entries">
        {entries.map((e) => (
          <li key={e.slug}>
            <strong>{e.title}</strong> · {e.organisation}
            <div className="meta">{e.period.label} · {e.kind}</div>
            <p>{e.summary}</p>
            <a className="api" href={`/api/v1/entries/${e.slug}`}>/api/v1/entries/{e.slug}</a>
          </li>
        ))}
      </ul>
      <p className="api">
        API: <a href="/api/v1/entries">/api/v1/entries</a> · <a href="/openapi.json">/openapi.json</a> · <a href="/api/health">/api/health</a>
      </p>
    </main>
  );
}
