// After a client-side navigation to another page, what a full page load gives a screen reader for free: focus at
// the start of the new page and its title read out (Next.js's route announcer, GOV.UK's and Gatsby's focus move).
import { useLocation } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';

/**
 * Moves focus to the new page's h1 (or the fragment's target, or <main>) and says the page's title in a polite live
 * region, when the path changes. Not on the first load, where the browser does both, and not when only the query or
 * the fragment changes: a filter, a search or a link within the page keeps the visitor where they are, and the page's
 * own status regions (the result counts) say what changed. Focus is left alone while the visitor is in a dialog (the
 * chat panel) or one covers the page (the chat on a phone); the title is still said, as the page behind it changed.
 */
export function RouteAnnouncer() {
  const location = useLocation();
  const shownPath = useRef(location.pathname);
  // `n` renews the text node, so a title equal to the last one is read again.
  const [announcement, setAnnouncement] = useState({ title: '', n: 0 });

  useEffect(() => {
    if (location.pathname === shownPath.current) return;
    shownPath.current = location.pathname;
    if (!dialogHasTheVisitor()) focusQuietly(pageStart(location.hash));
    // After the focus move: a screen reader reads the focused heading first, then this.
    setAnnouncement(({ n }) => ({ title: pageTitle(), n: n + 1 }));
  }, [location]);

  return (
    <div className="sr-only" aria-live="polite" aria-atomic="true" data-testid="route-announcer">
      {announcement.title ? <p key={announcement.n}>{announcement.title}</p> : null}
    </div>
  );
}

const DIALOG = '[role="dialog"], dialog';

/** Focus is in a dialog, or an open one is what the visitor sees (it covers the middle of the window). */
function dialogHasTheVisitor(): boolean {
  if (document.activeElement?.closest(DIALOG)) return true;
  const middle = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2);
  return Boolean(middle?.closest(DIALOG));
}

/** The fragment's target when it names one (ScrollRestoration has scrolled there), else the page's h1, else <main>. */
function pageStart(hash: string): HTMLElement | null {
  let target: HTMLElement | null = null;
  try {
    target = hash.length > 1 ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
  } catch {
    // a malformed escape names no element
  }
  return target ?? document.querySelector<HTMLElement>('main h1') ?? document.getElementById('main');
}

/**
 * Focus without scrolling (ScrollRestoration has put the page where it belongs: the top, the fragment, or where the
 * visitor left it on Back) and, on an element that is not a control, without a focus ring: the heading is where
 * reading starts, not something to operate. An element made focusable for this (tabindex -1, as GOV.UK's setFocus
 * does) is given back its own attributes once focus leaves it.
 */
function focusQuietly(element: HTMLElement | null): void {
  if (!element) return;
  if (element.tabIndex < 0) {
    const added = !element.hasAttribute('tabindex');
    if (added) element.setAttribute('tabindex', '-1');
    element.style.outline = 'none';
    element.addEventListener(
      'blur',
      () => {
        element.style.outline = '';
        if (!element.getAttribute('style')) element.removeAttribute('style');
        if (added) element.removeAttribute('tabindex');
      },
      { once: true },
    );
  }
  element.focus({ preventScroll: true });
}

/** The new <title>, which the page's meta has set by now; the h1 or the path when a page has none. */
function pageTitle(): string {
  return document.title.trim() || document.querySelector('main h1')?.textContent?.trim() || window.location.pathname;
}
