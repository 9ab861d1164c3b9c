// An image where the console reviews or compares changes: the picture itself (before and after when one replaces
// another) instead of a text diff, read from the branch through admin_read_file (its bytes as base64) when this
// browser does not hold it, or its size in words where the bytes are not at hand.
import { useEffect, useState } from 'react';
import { callOperation, troubleOf } from './api.ts';
import { sizeInWords } from './media-store.ts';
import type { Branch } from './ui.tsx';

const typeOfPath = (path: string) => {
  const ext = path.slice(path.lastIndexOf('.') + 1);
  return ext === 'jpg' || ext === 'jpeg' ? 'image/jpeg' : `image/${ext}`;
};

/** An image as a branch (or a commit of it, `at`) holds it, loaded when shown. */
export function BranchImage({ path, branch, at, label }: { path: string; branch: Branch; at?: string; label: string }) {
  const [state, setState] = useState<{ src?: string; size?: number; error?: string }>({});
  useEffect(() => {
    const controller = new AbortController();
    callOperation('admin_read_file', { path, branch, ...(at ? { ref: at } : {}) }, controller.signal).then(
      (file) =>
        setState(
          file.contentBase64
            ? { src: `data:${typeOfPath(path)};base64,${file.contentBase64}`, size: Math.floor((file.contentBase64.length * 3) / 4) }
            : { error: 'not an image' },
        ),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const trouble = troubleOf(error);
        setState({ error: trouble.status === 404 ? 'not there' : trouble.message });
      },
    );
    return () => controller.abort();
  }, [path, branch, at]);
  return (
    <figure className="image-side">
      {state.src ? <img src={state.src} alt={`${label}: ${path}`} className="media-preview" /> : null}
      <figcaption className="muted">
        {label}
        {state.size ? `, ${sizeInWords(state.size)}` : state.error === 'not there' ? ': none' : state.error ? `: binary image (${state.error})` : ': loading…'}
      </figcaption>
    </figure>
  );
}

/** A pending image of the change set: its thumbnail, and the image it replaces on the branch when there is one. */
export function PendingImage({
  path,
  branch,
  baseSha,
  image,
}: {
  path: string;
  branch: Branch;
  baseSha: string | null;
  image: { type: string; size: number; thumb: string };
}) {
  return (
    <div className="image-change" role="region" aria-label={`Image ${path}`}>
      {baseSha ? <BranchImage path={path} branch={branch} label="Before" /> : null}
      <figure className="image-side">
        {image.thumb ? <img src={image.thumb} alt={`New image: ${path}`} className="media-preview" /> : null}
        <figcaption className="muted">
          {baseSha ? 'After' : 'New image'}: {image.type.replace('image/', '').toUpperCase()}, {sizeInWords(image.size)}
        </figcaption>
      </figure>
    </div>
  );
}

/** An image in a comparison of two branches: before (base) and after (head), or its size where a side is absent. */
export function ComparedImage({
  path,
  base,
  head,
  media,
}: {
  path: string;
  base: Branch;
  head: Branch;
  media: { before: { size: number } | null; after: { size: number } | null };
}) {
  return (
    <div className="image-change" role="region" aria-label={`Image ${path}`}>
      {media.before ? <BranchImage path={path} branch={base} label={`On ${base}`} /> : null}
      {media.after ? <BranchImage path={path} branch={head} label={`On ${head}`} /> : <p className="muted">Deleted on {head}.</p>}
    </div>
  );
}
