// The shapes the pages read, typed from the operations' own output schemas (type-only: no zod in the browser).
import type { z } from 'zod';
import type { Document, EntryLong, EntryShort, getBrief, Image, Lens, SearchResult } from '../../operations/contract/public.ts';

export type EntryShortData = z.output<typeof EntryShort>;
export type EntryData = z.output<typeof EntryLong>;
export type LensData = z.output<typeof Lens>;
export type DocumentData = z.output<typeof Document>;
export type SearchResultData = z.output<typeof SearchResult>;
export type BriefData = z.output<(typeof getBrief)['output']>;
export type ImageData = z.output<typeof Image>;
