// The page types that have their own `og:image` card, and how a card of each type looks. Plain data (the
// page's <head> links the card; app/utils/og-image.server.ts draws it).
export const ogPageTypes = ['home', 'entries', 'entry', 'lenses', 'lens', 'documents', 'document', 'search'] as const;
export type OgPageType = (typeof ogPageTypes)[number];

export const ogImageSize = { width: 1200, height: 630 } as const;

/** What a card says above the name, and its accent colour, per page type. */
export const ogPageLooks: Record<OgPageType, { eyebrow: string; accent: readonly [number, number, number] }> = {
  home: { eyebrow: 'Profile', accent: [56, 189, 248] },
  entries: { eyebrow: 'Experience, projects and education', accent: [52, 211, 153] },
  entry: { eyebrow: 'Career entry', accent: [52, 211, 153] },
  lenses: { eyebrow: 'Role lenses', accent: [251, 191, 36] },
  lens: { eyebrow: 'Role lens', accent: [251, 191, 36] },
  documents: { eyebrow: 'Reference documents', accent: [196, 181, 253] },
  document: { eyebrow: 'Reference document', accent: [196, 181, 253] },
  search: { eyebrow: 'Search', accent: [248, 113, 113] },
};

/** The page type of a path without its locale prefix ("/entries/x" → entry); any other page counts as the home page. */
export function ogPageType(path: string): OgPageType {
  const [first, second] = path.split('/').filter(Boolean);
  if (first === 'entries') return second ? 'entry' : 'entries';
  if (first === 'lenses') return second ? 'lens' : 'lenses';
  if (first === 'documents') return second ? 'document' : 'documents';
  if (first === 'search') return 'search';
  return 'home';
}

/** Where a page type's card is served. */
export const ogImagePath = (type: OgPageType) => `/og/${type}.png`;
