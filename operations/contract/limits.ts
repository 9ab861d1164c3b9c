// The sizes the contract states, each named once: requests over them are refused, content over them fails
// validation (so no build serves it and no commit writes it), and the service cuts what it makes or reads from
// elsewhere (git, a model) to them. OpenAPI shows each as a maxLength or maxItems. Plain numbers, no zod: the
// content schema and the browser import them too. Lengths count UTF-16 code units, as JavaScript and JSON Schema do.

export const limits = {
  /** A content file's whole text (front matter and Markdown body, or JSON); so also any one record's text. */
  contentFile: 512 * 1024,
  /** Files in a content tree: lists of entries, skills, pages or files are never longer (100× the demo's content fits). */
  contentFiles: 100_000,
  /** A repository path such as "content/corpus/projects/concierge-copilot.md". */
  path: 300,
  /** An entry, lens or skill slug, or a document name. */
  slug: 100,
  /** An address: the site's own (BASE_URL with a page's path) or a link in the content. */
  url: 2048,
  /** An email address (RFC 5321). */
  email: 254,
  /** A commit message written through the service; one read from history is cut to `commitMessageRead`. */
  commitMessage: 500,
  commitMessageRead: 10_000,
  /** A commit author's name (and address) as history shows it. */
  author: 500,
  /** An error's or a problem's message; longer ones (a git process's output) are cut. */
  message: 2000,
  /** Problems listed in one answer; past it, the last one says how many more there are. */
  problems: 1000,
  /** An answer of the agent, in characters. */
  answer: 20_000,
  /** Commits listed by one comparison of two branches (as GitHub's compare lists at most 250). */
  comparedCommits: 250,
  /** Parents a commit lists (an octopus merge made elsewhere may have more; history lists the first). */
  parents: 16,

  // Fields of the content files, in English: a translation may be `translationStretch` times as long (French and
  // Spanish run longer than the English they translate).
  translationStretch: 2,
  title: 160,
  organisation: 160,
  location: 120,
  summary: 300,
  keyResult: 200,
  lensTitle: 120,
  skillName: 80,
  documentSummary: 200,
  briefQuestion: 200,
  briefQuestions: 6,
  /** The site's and the subject's names. */
  name: 160,
  description: 300,
  headline: 300,
  notice: 1000,
  /** `whyItMatters`: a paragraph of Markdown. */
  paragraph: 4000,
  /** One item of a list (contributions, achievements, key results, honest gaps). */
  listItem: 1000,
  /** Items of such a list, of an entry's skills, or of proof links. */
  listItems: 50,
  linkLabel: 200,
  /** An image's alt text: what it shows, for someone who cannot see it. */
  alt: 300,
  /** Images of an entry's gallery. */
  gallery: 12,
  /** A translation's `source`: the hash of the English it was made from. */
  sourceHash: 64,
  relatedTerm: 60,
  relatedGroup: 20,
  relatedGroups: 500,
} as const;

/** The most a translated field may hold, for a field whose English is at most `english`. */
export const translatedMax = (english: number): number => english * limits.translationStretch;
