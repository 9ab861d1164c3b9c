// The reader's place on a page, carried across a change of language. Heading ids come from the translated
// headings ("#positioning" is "#positionnement" in French), so the place travels as the section's position
// instead: "#section=3" is the third heading of the page's content, which the translated page has too. The
// translated page scrolls to it once it runs its scripts and puts that heading's own id in the address.
// ('=' is never part of a heading id: github-slugger drops punctuation, see operations/content/sections.ts.)

const placeFragment = /^#section=(\d+)$/;

/**
 * The headings that open a section of the page's content, in document order: not those of an aside beside it
 * (an entry's skills and tags stick to the top of the window while its sections scroll by).
 */
function sectionHeadings(doc: Document): HTMLElement[] {
  const headings = doc.querySelectorAll<HTMLElement>('main :is(h2, h3, h4)');
  return [...headings].filter((h) => !h.closest('aside') && h.getClientRects().length > 0);
}

/** How far below the top of the window the sticky header ends (html's scroll-padding-top). */
function headerOffset(win: Window): number {
  return parseFloat(win.getComputedStyle(win.document.documentElement).scrollPaddingTop) || 0;
}

/**
 * The 1-based position of the section being read: the heading the address points at while it is on screen (a
 * section near the end of the page cannot scroll to the top), else the nearest heading above a line a quarter of
 * the way down the visible page. 0 above the first heading.
 */
export function currentSection(win: Window): number {
  const headings = sectionHeadings(win.document);
  const top = headerOffset(win);
  const targeted = win.document.querySelector(':target');
  const t = headings.findIndex((h) => h === targeted);
  if (t >= 0) {
    const box = headings[t]!.getBoundingClientRect();
    if (box.bottom > top && box.top < win.innerHeight) return t + 1;
  }
  const line = top + (win.innerHeight - top) / 4;
  let best = 0;
  let bestTop = -Infinity;
  headings.forEach((h, i) => {
    const y = h.getBoundingClientRect().top;
    if (y <= line && y > bestTop) [best, bestTop] = [i + 1, y];
  });
  return best;
}

/** `href` with the reader's place in the fragment, if they are past the page's first heading. */
export function withReadingPlace(href: string, win: Window): string {
  const section = currentSection(win);
  const page = href.replace(/#.*$/, ''); // (a place set by an earlier click that did not leave the page is gone)
  return section > 0 ? `${page}#section=${section}` : page;
}

/** On arrival at "#section=n": scroll to the nth heading (or the last) and name it by its own id in the address. */
export function restoreReadingPlace(win: Window): void {
  const match = placeFragment.exec(win.location.hash);
  if (!match) return;
  const headings = sectionHeadings(win.document);
  const heading = headings[Math.min(Number(match[1]), headings.length) - 1];
  const { pathname, search } = win.location;
  const address = heading?.id ? `${pathname}${search}#${encodeURIComponent(heading.id)}` : `${pathname}${search}`;
  win.history.replaceState(win.history.state, '', address); // the router's state (its key) stays as it was
  heading?.scrollIntoView({ block: 'start', behavior: 'instant' });
}
