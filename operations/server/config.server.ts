// Configuration: parsed once from the environment with zod. A bad value stops the start with one line
// that names the variable.
import { z } from 'zod';

const Port = z.coerce.number().int().min(0).max(65535);
const Url = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ''));
/** The site's own address: short enough that every page's address under it fits the contract's (limits.url). */
const SiteUrl = z
  .url({ protocol: /^https?$/ })
  .max(1024, 'must be at most 1024 characters')
  .transform((u) => u.replace(/\/+$/, ''));
const Flag = z.enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no', '']).transform((v) => ['1', 'true', 'on', 'yes'].includes(v));

const EnvSchema = z
  .object({
    PORT: Port.default(3000),
    PREVIEW_PORT: Port.default(3001),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().min(1).default('.data'),
    CONTENT_DIR: z.string().min(1).default('content'),
    REPO_BACKEND: z.enum(['local', 'github']).default('local'),
    GITHUB_TOKEN: z.string().optional(),
    GITHUB_REPOSITORY: z
      .string()
      .regex(/^[\w.-]+\/[\w.-]+$/, 'must look like owner/name')
      .optional(),
    GITHUB_API_URL: Url.default('https://api.github.com'),
    GITHUB_WEBHOOK_SECRET: z.string().optional(),
    /** Least milliseconds between two GitHub writes (GitHub asks for one second; tests against the emulator pass 0). */
    GITHUB_WRITE_INTERVAL_MS: z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(0).max(60000).default(1000),
    BASE_URL: SiteUrl.optional(),
    DEV_URL: SiteUrl.optional(),
    ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    SESSION_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    /** Bearer token of /metrics (the admin token works too); a header cannot carry spaces inside a token. */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').regex(/^\S+$/, 'must not contain spaces').optional(),
    OPENAI_API_KEY: z.string().optional(),
    OPENAI_BASE_URL: Url.optional(),
    CHAT_MODEL: z.string().min(1).default('gpt-4o-mini'),
    TRANSLATE_MODEL: z.string().min(1).default('gpt-4o-mini'),
    TRANSCRIBE_MODEL: z.string().min(1).default('whisper-1'),
    EMBEDDING_MODEL: z.string().min(1).optional(),
    /** Hybrid search: the cosine from which a passage is a match by meaning alone (a scale each embeddings model has its own of). */
    EMBEDDING_MIN_SIMILARITY: z.coerce
      .number({ error: 'must be a number from 0 to 1' })
      .min(0, 'must be a number from 0 to 1')
      .max(1, 'must be a number from 0 to 1')
      .default(0.6),
    TRUST_PROXY: Flag.default(false),
    RATE_LIMIT_STORE: z.union([z.literal('memory'), z.string().regex(/^rediss?:\/\//, 'must be "memory" or a redis:// URL')]).default('memory'),
    LOG_LEVEL: z.enum(['silent', 'error', 'info', 'debug']).default('info'),
    SHUTDOWN_GRACE_SECONDS: z.coerce
      .number({ error: 'must be a number of seconds' })
      .min(0, 'must be 0 or more seconds')
      .max(3600, 'must be at most 3600 seconds')
      .default(25),
    PAGE_CACHE_MB: z.coerce
      .number({ error: 'must be a number of megabytes' })
      .min(0, 'must be 0 (no page cache) or more megabytes')
      .max(65536, 'must be at most 65536 megabytes')
      .default(64),
  })
  .superRefine((env, ctx) => {
    if (env.EMBEDDING_MODEL && !env.OPENAI_API_KEY && !env.OPENAI_BASE_URL) {
      ctx.addIssue({ code: 'custom', path: ['EMBEDDING_MODEL'], message: 'needs a model provider: set OPENAI_API_KEY, or OPENAI_BASE_URL' });
    }
    if (env.REPO_BACKEND === 'github' && !env.GITHUB_REPOSITORY) {
      ctx.addIssue({ code: 'custom', path: ['GITHUB_REPOSITORY'], message: 'is required when REPO_BACKEND=github (owner/name)' });
    }
    if (env.REPO_BACKEND === 'github' && !env.GITHUB_TOKEN) {
      ctx.addIssue({
        code: 'custom',
        path: ['GITHUB_TOKEN'],
        message: 'is required when REPO_BACKEND=github (a fine-grained token with Contents: Read and write)',
      });
    }
    if (env.REPO_BACKEND === 'github' && !env.GITHUB_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['GITHUB_WEBHOOK_SECRET'],
        message: "is required when REPO_BACKEND=github (the secret of the repository's webhook to /api/admin/github/webhook)",
      });
    }
  });

export type Env = z.output<typeof EnvSchema>;

export interface Config extends Env {
  baseUrl: string;
  devUrl: string;
  chatConfigured: boolean;
}

export class ConfigError extends Error {}

/** Parses the environment; throws ConfigError with one line naming the first bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings count as unset, as in most twelve-factor apps.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    const got = cleaned[name];
    const secret = /TOKEN|SECRET|KEY/.test(name);
    // An address may carry credentials (redis://:password@host, https://user:token@host): never echoed.
    const shown = got?.replace(/\/\/[^/@\s]*@/g, '//…@');
    throw new ConfigError(
      `Invalid configuration: ${name} ${issue.message.replace(/^Invalid input: /, '')}${shown !== undefined && !secret ? ` (got "${shown}")` : ''}`,
    );
  }
  const parsed = result.data;
  return {
    ...parsed,
    baseUrl: parsed.BASE_URL ?? `http://localhost:${parsed.PORT || 3000}`,
    devUrl: parsed.DEV_URL ?? `http://localhost:${parsed.PREVIEW_PORT || 3001}`,
    chatConfigured: Boolean(parsed.OPENAI_API_KEY || parsed.OPENAI_BASE_URL),
  };
}
