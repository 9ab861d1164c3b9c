// The chat launcher on every page. Without JavaScript it is a link to the search page; once the page is
// interactive it becomes a button that opens the chat panel, whose code loads only on first use, or at once when
// this tab kept a conversation from the page before (saved-conversation.ts): then open if it was open.
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useHref, useRoot, useT } from '../components/root-data.ts';
import { Icon } from '../components/Icons.tsx';
import { loadChat, tabStorage, type SavedChat } from './saved-conversation.ts';

const loadPanel = () => import('./ChatPanel.tsx');
const ChatPanel = lazy(() => loadPanel().then((m) => ({ default: m.ChatPanel })));

export function ChatWidget() {
  const { site } = useRoot();
  const t = useT();
  const href = useHref();
  const [interactive, setInteractive] = useState(false);
  const [open, setOpen] = useState(false);
  const [mounted, setMounted] = useState(false);
  const [restored, setRestored] = useState<SavedChat>();
  const launcher = useRef<HTMLButtonElement>(null);
  const label = t('chatOpen', { name: site.subject.name.split(/\s+/)[0]! });

  const show = useCallback(() => {
    setMounted(true);
    setOpen(true);
  }, []);

  useEffect(() => {
    setInteractive(true);
    // Read once the page is interactive (the server cannot know it): the first render matches the server's.
    const saved = loadChat(tabStorage());
    if (saved) {
      setRestored(saved);
      setMounted(true);
      setOpen(saved.open);
    }
    // Any link marked data-open-chat (e.g. the home page's "Ask" button) opens the panel instead.
    const onClick = (event: MouseEvent) => {
      const target = (event.target as Element | null)?.closest?.('[data-open-chat]');
      if (!target || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      show();
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [show]);

  const close = useCallback(() => setOpen(false), []);

  // Back to the launcher when the panel closes (it is hidden while the panel is open, so only after rendering).
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open) launcher.current?.focus();
    wasOpen.current = open;
  }, [open]);

  // In a landmark of its own, so that every part of the page sits in one.
  if (!interactive) {
    return (
      <aside className="chat" aria-label={label}>
        <a className="chat-launcher" href={href('/search')}>
          <Icon name="chat" size={20} />
          <span>{label}</span>
        </a>
      </aside>
    );
  }
  return (
    <aside className="chat" aria-label={label}>
      <button
        ref={launcher}
        type="button"
        className="chat-launcher"
        aria-expanded={open}
        aria-controls={mounted ? 'chat-panel' : undefined}
        hidden={open}
        onClick={() => (open ? close() : show())}
        onPointerEnter={() => void loadPanel()}
        onFocus={() => void loadPanel()}
      >
        <Icon name="chat" size={20} />
        <span>{label}</span>
      </button>
      {mounted ? (
        <Suspense fallback={null}>
          <ChatPanel open={open} onClose={close} restored={restored} />
        </Suspense>
      ) : null}
    </aside>
  );
}
