// The content model's vocabulary for the browser: the plain lists the contract's zod enums are built from
// (importing shared.ts here would pull zod, ~95 kB gzip, into every page).
export { documentNames, kinds, lensIds, locales, tags } from '../../operations/contract/vocabulary.ts';
export type { DocumentName, Kind, LensId, Locale, Tag } from '../../operations/contract/vocabulary.ts';
