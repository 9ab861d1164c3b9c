// Handlers of the admin operations: the content repository through validated commits, the pipeline,
// promote. Every write is one commit on one branch and queues that branch's publish run.
import { z } from 'zod';
import { AppError } from '../contract/errors.ts';
import type { InputOf, OutputOf } from '../contract/define.ts';
import type {
  adminAiEdit, adminCommitChanges, adminDeleteFile, adminDeployStatus, adminListFiles, adminPromote, adminReadFile, adminSchema, adminValidate, adminWriteFile,
} from '../contract/admin.ts';
import { documentNames, kinds, lensIds, locales, tags, type Branch } from '../contract/shared.ts';
import { fileKinds, SiteFile, translatableFields } from '../content/schema.ts';
import { assertContentDir, assertWritablePath, writablePathRules } from '../content/paths.ts';
import type { CommitOutcome } from '../repo/content-repo.server.ts';
import type { Run } from './pipeline.server.ts';
import { aiEditHandlers } from './ai-edit.server.ts';
import type { OperationContext } from './context.server.ts';

async function committed(ctx: OperationContext, outcome: CommitOutcome) {
  if (outcome.changed) await ctx.runtime.pipeline.enqueue(outcome.branch, outcome.commit.sha);
  return { branch: outcome.branch, commit: outcome.commit, files: outcome.files, changed: outcome.changed };
}

function runView(run: Run, ctx: OperationContext) {
  const { retryOf: _retryOf, sourceCommit: _sourceCommit, ...rest } = run;
  return { ...rest, url: `${ctx.runtime.config.baseUrl}/api/admin/deploys?branch=${run.branch}#${run.id}`, siteUrl: ctx.runtime.siteUrl(run.branch) };
}

export const adminHandlers = {
  admin_schema(_input: InputOf<typeof adminSchema>, ctx: OperationContext): OutputOf<typeof adminSchema> {
    const noIds = z.registry();
    const describe = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', metadata: noIds, unrepresentable: 'any' } as Parameters<typeof z.toJSONSchema>[1]) as Record<string, any>;
    const fields = (schema: z.ZodType) => {
      const json = describe(schema);
      const required = new Set<string>(json.required ?? []);
      return Object.entries<Record<string, any>>(json.properties ?? {}).map(([name, prop]) => {
        const items = prop.items as Record<string, any> | undefined;
        const allowed = prop.enum ?? items?.enum;
        const rules = [
          prop.maxLength && `at most ${prop.maxLength} characters`,
          prop.pattern && `matches ${prop.pattern}`,
          prop.minItems && `at least ${prop.minItems} item${prop.minItems === 1 ? '' : 's'}`,
          name === 'skills' && 'each must exist under content/skills/',
          name === 'end' && 'not before start',
        ].filter(Boolean) as string[];
        const type = prop.type === 'array' ? `${items?.type ?? 'object'}[]` : Array.isArray(prop.type) ? prop.type.join(' | ') : prop.anyOf ? prop.anyOf.map((a: any) => a.type).join(' | ') : String(prop.type ?? 'any');
        return { name, type, required: required.has(name), ...(prop.description ? { description: prop.description } : {}), ...(allowed ? { allowed: allowed.map(String) } : {}), ...(rules.length ? { rules } : {}) };
      });
    };
    return {
      fileKinds: [
        ...Object.entries(fileKinds).map(([kind, def]) => ({ kind, pattern: def.pattern, body: def.body, fields: fields(def.fields), translationFields: ['source', ...translatableFields[kind as keyof typeof fileKinds]] })),
        { kind: 'site', pattern: 'content/site.json', body: 'none (JSON file)', fields: fields(SiteFile), translationFields: [] },
      ],
      kinds: [...kinds],
      tags: [...tags],
      lenses: [...lensIds],
      documents: [...documentNames],
      locales: [...locales],
      skills: [...ctx.runtime.build('main').model.skills.keys()].sort(),
      writablePaths: ['content/**/*.md', 'content/**/*.json', ...writablePathRules],
      conventions: [
        'Markdown files start with YAML front matter between "---" lines, then the Markdown body; quote strings that contain ": ".',
        'The file name is the slug: lowercase letters, digits and single hyphens. Slugs are unique across entries, lenses and skills.',
        'The folder of an entry gives its kind: content/corpus/{experiences,projects,community,education}/.',
        'Translations live at content/i18n/<locale>/<same path as the English file> and hold only the translated fields plus `source`.',
        '`source` is the hash of the English fields a translation was made from. When the English changes, the translation is stale and English is served until it is translated again; the translate stage redoes only stale and missing translations and never overwrites one whose source is unchanged.',
        'Every write validates the whole tree as it would be after the change: a broken reference (a missing skill, a translation of a deleted file) is rejected like a malformed field.',
        'Send the `sha` you read with a write or delete to be told (409) if someone changed the file in between.',
        'Write to branch "dev" to preview on the dev site, then promote to publish on main.',
      ],
      jsonSchema: Object.fromEntries(Object.entries(fileKinds).map(([kind, def]) => [kind, describe(def.fields)])),
    };
  },

  async admin_list_files(input: InputOf<typeof adminListFiles>, ctx: OperationContext): Promise<OutputOf<typeof adminListFiles>> {
    const dir = assertContentDir(input.dir ?? 'content');
    const files = await ctx.runtime.repo.listFiles(input.branch, dir);
    return { branch: input.branch, files: files.map(({ path, size, sha }) => ({ path, size, sha })) };
  },

  async admin_read_file(input: InputOf<typeof adminReadFile>, ctx: OperationContext): Promise<OutputOf<typeof adminReadFile>> {
    const path = input.path ?? pathOfSlug(ctx, input.branch, input.slug!);
    assertWritablePath(path);
    const file = await ctx.runtime.repo.readFile(input.branch, path);
    return { path, sha: file.sha, content: file.content, branch: input.branch };
  },

  async admin_validate(input: InputOf<typeof adminValidate>, ctx: OperationContext): Promise<OutputOf<typeof adminValidate>> {
    const problems = await ctx.runtime.repo.validate(input.branch, [{ path: input.path, content: input.content }]);
    return { valid: problems.length === 0, problems };
  },

  async admin_write_file(input: InputOf<typeof adminWriteFile>, ctx: OperationContext): Promise<OutputOf<typeof adminWriteFile>> {
    return committed(ctx, await ctx.runtime.repo.commit(input.branch, [{ path: input.path, content: input.content, sha: input.sha }], input.message));
  },

  async admin_delete_file(input: InputOf<typeof adminDeleteFile>, ctx: OperationContext): Promise<OutputOf<typeof adminDeleteFile>> {
    return committed(ctx, await ctx.runtime.repo.commit(input.branch, [{ path: input.path, delete: true, sha: input.sha }], input.message));
  },

  async admin_commit_changes(input: InputOf<typeof adminCommitChanges>, ctx: OperationContext): Promise<OutputOf<typeof adminCommitChanges>> {
    const changes = input.changes.map((c) => ('delete' in c ? { path: c.path, delete: true as const, sha: c.sha } : { path: c.path, content: c.content, sha: c.sha }));
    return committed(ctx, await ctx.runtime.repo.commit(input.branch, changes, input.message));
  },

  admin_deploy_status(input: InputOf<typeof adminDeployStatus>, ctx: OperationContext): OutputOf<typeof adminDeployStatus> {
    return { runs: ctx.runtime.pipeline.list(input.branch, input.limit).map((run) => runView(run, ctx)) };
  },

  admin_ai_edit(input: InputOf<typeof adminAiEdit>, ctx: OperationContext): Promise<OutputOf<typeof adminAiEdit>> {
    return aiEditHandlers.admin_ai_edit(input, ctx, (slug) => pathOfSlug(ctx, input.branch, slug));
  },

  async admin_promote(input: InputOf<typeof adminPromote>, ctx: OperationContext): Promise<OutputOf<typeof adminPromote>> {
    const outcome = await ctx.runtime.repo.promote(input.message);
    if (outcome.changed) await ctx.runtime.pipeline.enqueue('main', outcome.commit.sha);
    return { branch: 'main', commit: outcome.commit, files: outcome.files, changed: outcome.changed, merged: outcome.merged, fastForward: outcome.fastForward };
  },
};

/** The source file of an entry, lens or skill slug, as the branch's live build knows it. */
function pathOfSlug(ctx: OperationContext, branch: Branch, slug: string): string {
  const model = ctx.runtime.build(branch).model;
  const path = model.entries.get(slug)?.path ?? model.lenses.get(slug as never)?.path ?? model.skills.get(slug)?.path;
  if (!path) throw new AppError('not_found', `No entry, lens or skill with slug "${slug}" on ${branch}. List files with GET /api/admin/files.`);
  return path;
}
