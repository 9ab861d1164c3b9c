// The previewed page, in a frame of its own: the site's stylesheet applies there and nowhere else, and
// the frame runs no scripts.
export function PagePreview({ html, title }: { html: string; title: string }) {
  return <iframe className="preview-frame" title={title} srcDoc={html} sandbox="allow-same-origin allow-popups" />;
}
