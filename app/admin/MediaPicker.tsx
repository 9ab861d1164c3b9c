// The editor's media picker: an image dropped onto the editor, pasted into it, or chosen with the button joins the
// change set as a pending image at content/media/<its name, slugified>.<ext> (a name the branch already has gets a
// number), to be committed with the texts in one commit. Its path is offered to copy, alone or as the front matter
// that shows it as an entry's cover.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { callOperation } from './api.ts';
import { readChanges, saveChange } from './change-set.ts';
import { base64Of, imageRefusal, keepImage, mediaPathFor, sizeInWords, thumbnailOf } from './media-store.ts';
import { MEDIA_DIR, mediaTypes } from '../../operations/contract/media-files.ts';
import type { Branch } from './ui.tsx';

interface Added {
  path: string;
  size: number;
  thumb: string;
}

/** The front matter that makes an image an entry's cover (the same shape as `portrait` in site.json and each `gallery` item). */
export const coverSnippet = (path: string) => `cover:\n  path: ${path}\n  alt: ""`;

/** A path for `wanted` that neither the branch nor the change set holds yet: "photo.jpg", else "photo-2.jpg"… */
function freePath(wanted: string, taken: ReadonlySet<string>): string {
  if (!taken.has(wanted)) return wanted;
  const dot = wanted.lastIndexOf('.');
  for (let n = 2; ; n++) {
    const candidate = `${wanted.slice(0, dot)}-${n}${wanted.slice(dot)}`;
    if (!taken.has(candidate)) return candidate;
  }
}

async function mediaOnBranch(branch: Branch): Promise<Set<string>> {
  try {
    return new Set((await callOperation('admin_list_files', { dir: MEDIA_DIR, branch })).files.map((f) => f.path));
  } catch {
    return new Set(); // no content/media/ yet, or the list failed: a clash is still refused by the commit (409)
  }
}

/** Images among a drop's or a paste's items. */
const filesOf = (data: DataTransfer | null) => [...(data?.files ?? [])];

export function MediaPicker({ branch, target, disabled }: { branch: Branch; target: RefObject<HTMLElement>; disabled: boolean }) {
  const [added, setAdded] = useState<Added[]>([]);
  const [refusals, setRefusals] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const add = useCallback(
    async (files: File[]) => {
      if (!files.length) return;
      setBusy(true);
      const refused: string[] = [];
      const taken = new Set([...(await mediaOnBranch(branch)), ...Object.keys(readChanges(branch))]);
      const now: Added[] = [];
      for (const file of files) {
        const refusal = imageRefusal(file);
        if (refusal) {
          refused.push(refusal);
          continue;
        }
        const path = freePath(mediaPathFor(file.name || 'image', file.type), taken);
        taken.add(path);
        try {
          await keepImage(branch, path, await base64Of(file));
        } catch (error) {
          refused.push(`"${file.name}" could not be kept in this browser (${(error as Error).message}).`);
          continue;
        }
        const thumb = await thumbnailOf(file);
        saveChange(branch, { path, base: { sha: null, content: null }, content: '', image: { type: file.type, size: file.size, thumb } });
        now.push({ path, size: file.size, thumb });
      }
      setAdded((before) => [...now, ...before]);
      setRefusals(refused);
      setBusy(false);
    },
    [branch],
  );

  // Drop onto the editor, or paste an image into it (text pastes go on to the editor as ever).
  useEffect(() => {
    const host = target.current;
    if (!host || disabled) return;
    const hasFiles = (event: DragEvent) => [...(event.dataTransfer?.types ?? [])].includes('Files');
    const onOver = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      setOver(true);
    };
    const onLeave = () => setOver(false);
    const onDrop = (event: DragEvent) => {
      setOver(false);
      if (!hasFiles(event)) return;
      event.preventDefault();
      event.stopPropagation();
      void add(filesOf(event.dataTransfer));
    };
    const onPaste = (event: ClipboardEvent) => {
      const files = filesOf(event.clipboardData);
      if (!files.length) return;
      event.preventDefault();
      event.stopPropagation();
      void add(files);
    };
    host.addEventListener('dragover', onOver, true);
    host.addEventListener('dragleave', onLeave, true);
    host.addEventListener('drop', onDrop, true);
    host.addEventListener('paste', onPaste, true);
    return () => {
      host.removeEventListener('dragover', onOver, true);
      host.removeEventListener('dragleave', onLeave, true);
      host.removeEventListener('drop', onDrop, true);
      host.removeEventListener('paste', onPaste, true);
    };
  }, [target, add, disabled]);

  const copy = (text: string, what: string) =>
    void navigator.clipboard?.writeText(text).then(
      () => setCopied(what),
      () => setCopied(null),
    );

  return (
    <section className={`media-picker${over ? ' drop-over' : ''}`} aria-label="Images">
      {/* A button (reached by Tab, pressed with Enter or Space) opens the file input, which is never shown itself. */}
      <button type="button" className="button ghost small" disabled={disabled || busy} onClick={() => input.current?.click()}>
        {busy ? 'Adding…' : 'Add image…'}
      </button>
      <input
        ref={input}
        type="file"
        accept={mediaTypes.join(',')}
        multiple
        hidden
        disabled={disabled || busy}
        data-testid="media-input"
        onChange={(event) => {
          void add([...(event.currentTarget.files ?? [])]);
          event.currentTarget.value = '';
        }}
      />
      <span className="muted"> or drop or paste an image onto the editor: it joins your change set and is committed with your texts.</span>
      {refusals.length ? (
        <ul className="problem-list" role="alert">
          {refusals.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      ) : null}
      {added.length ? (
        <ul className="media-added" aria-live="polite">
          {added.map((a) => (
            <li key={a.path}>
              {a.thumb ? <img src={a.thumb} alt="" className="media-thumb" /> : null}
              <code>{a.path}</code> <span className="muted">{sizeInWords(a.size)}, in your change set</span>{' '}
              <button type="button" className="button ghost small" onClick={() => copy(a.path, a.path)}>
                {copied === a.path ? 'Copied' : 'Copy path'}
              </button>
              <button type="button" className="button ghost small" onClick={() => copy(coverSnippet(a.path), `cover:${a.path}`)}>
                {copied === `cover:${a.path}` ? 'Copied' : 'Copy as cover'}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
