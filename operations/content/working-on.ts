// What a build is working on, for its time budget: the build worker (operations/corpus/build-worker.ts) listens,
// so that a build stopped for running over its budget names the file it was on. The content checks, the passages
// and the search index report each file or record as they come to it; where nothing listens, a report is a call.
import type { Locale } from '../contract/shared.ts';

/** A content file by its path, or a record's text in a locale (an entry's or a document's), which names its file. */
export type WorkItem = string | { readonly kind: 'entry' | 'document'; readonly slug: string; readonly locale: Locale };

let listener: ((item: WorkItem | null) => void) | undefined;

/** The work from now on is on `item`'s file (null: on no one file, such as the index's own arithmetic). */
export function workingOn(item: WorkItem | null): void {
  listener?.(item);
}

/** Hears every `workingOn` of this thread (one listener; undefined: none). */
export function listenWorkingOn(next: ((item: WorkItem | null) => void) | undefined): void {
  listener = next;
}
