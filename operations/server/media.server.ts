// The media upload: an image checked by its bytes and stripped of its metadata (image-check.server.ts), and
// committed as a blob under content/media/ on either backend.
import type { adminUploadMedia } from '../contract/media.ts';
import type { ContentRepo } from '../repo/content-repo.server.ts';
import { authorOf } from './author.server.ts';
import { storedImage } from './image-check.server.ts';
import type { CallContext, Handlers } from './implement.server.ts';
import type { Pipeline } from './pipeline.server.ts';

export interface MediaDeps {
  repo: ContentRepo;
  pipeline: Pipeline;
}

/** Who a run's commit was made by, as publish runs show it: the signed-in account's name. */
const accountName = (ctx: CallContext) => (ctx.principal.kind === 'admin' ? ctx.principal.account.name : undefined);

export function mediaHandlers({ repo, pipeline }: MediaDeps): Handlers<[typeof adminUploadMedia]> {
  return {
    async admin_upload_media(input, ctx) {
      const image = await storedImage(input.path, input.contentBase64);
      const change = { path: input.path, bytes: image.bytes, ...(input.sha !== undefined ? { sha: input.sha } : {}) };
      const outcome = await repo.commit(input.branch, [change], input.message, authorOf(ctx));
      if (outcome.changed) await pipeline.enqueue(outcome.branch, outcome.commit.sha, accountName(ctx));
      const sha = outcome.files.find((f) => f.path === input.path)!.sha!;
      const { branch, commit, files, changed } = outcome;
      return { path: input.path, sha, type: image.type, width: image.width, height: image.height, size: image.bytes.length, branch, commit, files, changed };
    },
  };
}
