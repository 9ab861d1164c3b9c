// An uncontrolled form field (a search box, a filter) that shows what the URL says after each navigation
// (Back, Forward, a link) without being made again: giving it a `key` that follows the value reset it too,
// but a new element loses focus, so a keyboard user was sent to the page's start after every search or filter.
import { useEffect, useRef } from 'react';

export function useUrlValue<T extends HTMLInputElement | HTMLSelectElement>(value: string) {
  const ref = useRef<T>(null);
  const shown = useRef(value);
  useEffect(() => {
    // Only when the URL's value changes: on the first render the field may hold a choice made while the page was
    // still loading, which React replays as a change once it has hydrated (setting it back would lose that choice).
    if (shown.current === value) return;
    shown.current = value;
    if (ref.current && ref.current.value !== value) ref.current.value = value;
  }, [value]);
  return ref;
}
