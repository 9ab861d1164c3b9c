// The page as the site will show it, from the unsaved text, in the chosen locale: the console's preview
// route renders it with the site's own components (admin_preview makes the record with the build's code).
import { useEffect, useState } from 'react';
import { locales } from '../i18n/vocabulary.ts';
import { troubleFromBody, troubleOf, type ErrorBody, type Trouble } from './api.ts';
import { PagePreview } from './PagePreview.tsx';
import { Shortcut, TroubleNotice, type Branch } from './ui.tsx';

const PREVIEW_DELAY_MS = 400;

export function PreviewPanel({ path, branch, text, onClose }: { path: string; branch: Branch; text: string; onClose(): void }) {
  const translation = /^content\/i18n\/([^/]+)\//.exec(path)?.[1];
  const [locale, setLocale] = useState<string>(translation ?? 'en');
  const [html, setHtml] = useState<string | null>(null);
  const [trouble, setTrouble] = useState<Trouble | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch('/admin/preview', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ path, branch, locale, content: text }),
        signal: controller.signal,
      })
        .then(async (res) => {
          if (res.ok) {
            setHtml(await res.text());
            setTrouble(null);
          } else {
            const body = (await res.json().catch(() => ({ code: 'unknown', message: res.statusText }))) as ErrorBody;
            setTrouble(troubleFromBody(res.status, body));
          }
        })
        .catch((error: unknown) => !controller.signal.aborted && setTrouble(troubleOf(error)));
    }, PREVIEW_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [path, branch, text, locale]);

  return (
    <aside className="side-panel preview-panel" aria-labelledby="preview-title">
      <div className="panel-head">
        <h2 id="preview-title">Preview</h2>
        <label className="inline-label" htmlFor="preview-locale">
          Language
        </label>
        <select id="preview-locale" value={locale} onChange={(e) => setLocale(e.target.value)} disabled={Boolean(translation)}>
          {locales.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
        <button type="button" className="button ghost small" onClick={onClose}>
          Close <Shortcut keys="Escape" />
        </button>
      </div>
      {trouble ? <TroubleNotice trouble={trouble} /> : null}
      {html ? <PagePreview html={html} title={`Preview of ${path} in ${locale}`} /> : <p className="muted">Making the preview…</p>}
    </aside>
  );
}
