// `vitae __complete <kind>`: the values only the live service knows, for the completion scripts: entry slugs
// and lens ids from the public reads, content paths (and so skill slugs and document names) from the admin
// file list when a token is at hand. Answers are cached for a minute per site in the user's cache directory
// ($XDG_CACHE_HOME/vitae, else ~/.cache/vitae), so pressing Tab again costs no request. Never fails loudly:
// a completion that cannot reach the service offers nothing.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createClient } from '../operations/adapters/client.ts';
import { operationsByName } from '../operations/contract/index.ts';
import { documentNames } from '../operations/contract/vocabulary.ts';
import { cacheDir } from './credentials.ts';
import type { CliIO } from './io.ts';
import { adminToken, siteUrl, userAgent } from './settings.ts';
import type { EntryList, FileListOut, LensListOut } from './shapes.ts';

/** How long fetched values are reused. */
export const CACHE_SECONDS = 60;

export const liveKinds = ['slugs', 'targets', 'paths', 'dirs', 'lenses', 'documents'] as const;
export type LiveKind = (typeof liveKinds)[number];

type Group = 'entries' | 'lenses' | 'files';
interface CacheFile {
  url: string;
  groups: Partial<Record<Group, { at: number; values: string[] }>>;
}

export const completionCacheFile = (env: CliIO['env'], url: string) =>
  join(cacheDir(env), `completion-${createHash('sha256').update(url).digest('hex').slice(0, 16)}.json`);

function readCache(file: string, url: string): CacheFile {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
    if (data.url === url && data.groups && typeof data.groups === 'object') return data;
  } catch {
    // No cache yet, or an unreadable one: start afresh.
  }
  return { url, groups: {} };
}

function writeCache(file: string, data: CacheFile): void {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(data), { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    // A cache that cannot be written only costs a request next time.
  }
}

export async function liveValues(io: CliIO, kind: LiveKind, urlFlag: string | undefined): Promise<string[]> {
  const url = siteUrl(urlFlag, io.env);
  const token = adminToken(io.env, url);
  const file = completionCacheFile(io.env, url);
  const cache = readCache(file, url);
  let dirty = false;
  const client = createClient({ baseUrl: url, token, fetch: io.fetch, userAgent });
  const signal = () => AbortSignal.timeout(5_000);

  const fetchers: Record<Group, () => Promise<string[]>> = {
    entries: async () => (await client.call<EntryList>(operationsByName.get('list_experience')!, {}, { signal: signal() })).entries.map((e) => e.slug),
    lenses: async () => (await client.call<LensListOut>(operationsByName.get('list_lenses')!, {}, { signal: signal() })).lenses.map((l) => l.id),
    files: async () => {
      if (!token) return [];
      return (await client.call<FileListOut>(operationsByName.get('admin_list_files')!, {}, { signal: signal() })).files.map((f) => f.path);
    },
  };
  const group = async (name: Group): Promise<string[]> => {
    const cached = cache.groups[name];
    if (cached && Date.now() - cached.at < CACHE_SECONDS * 1000 && Date.now() >= cached.at) return cached.values;
    try {
      const values = await fetchers[name]();
      // An empty file list without a token is not cached, so a `vitae login` shows paths at once.
      if (name !== 'files' || token) {
        cache.groups[name] = { at: Date.now(), values };
        dirty = true;
      }
      return values;
    } catch {
      return cached?.values ?? [];
    }
  };

  let values: string[];
  switch (kind) {
    case 'slugs':
      values = await group('entries');
      break;
    case 'lenses':
      values = await group('lenses');
      break;
    case 'paths':
      values = await group('files');
      break;
    case 'dirs':
      values = [...new Set((await group('files')).flatMap(ancestors))];
      break;
    case 'documents': {
      const paths = await group('files');
      const live = paths.filter((p) => /^content\/documents\/[^/]+\.md$/.test(p)).map((p) => p.slice('content/documents/'.length, -3));
      values = live.length ? live : [...documentNames];
      break;
    }
    case 'targets': {
      const [entries, lenses, files] = await Promise.all([group('entries'), group('lenses'), group('files')]);
      const skills = files.filter((p) => /^content\/skills\/[^/]+\.md$/.test(p)).map((p) => p.slice('content/skills/'.length, -3));
      values = [...entries, ...lenses, ...skills, ...files];
      break;
    }
  }
  if (dirty) writeCache(file, cache);
  return [...new Set(values)];
}

/** Every folder above a path: content/corpus/projects/x.md → content, content/corpus, content/corpus/projects. */
function ancestors(path: string): string[] {
  const parts = path.split('/').slice(0, -1);
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

export async function printLiveValues(io: CliIO, kind: string, urlFlag: string | undefined): Promise<void> {
  if (!(liveKinds as readonly string[]).includes(kind)) return;
  try {
    const values = await liveValues(io, kind as LiveKind, urlFlag);
    if (values.length) io.stdout.write(values.join('\n') + '\n');
  } catch {
    // A bad --url or an unreachable service: no values, no noise in the middle of a command line.
  }
}
