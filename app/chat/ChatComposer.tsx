// Where the visitor writes: the question (Enter sends, Shift+Enter breaks the line), its length near the
// limit, the wait after a 429, the microphone when transcription is configured, and Send or Stop.
import type { Dispatch, FormEvent, KeyboardEvent, RefObject, SetStateAction } from 'react';
import type { Locale } from '../i18n/locales.ts';
import type { Translate } from '../i18n/messages.ts';
import { Icon } from '../components/Icons.tsx';
import { MAX_CONTENT } from './history.ts';
import { VoiceButton } from './VoiceButton.tsx';

export function ChatComposer(props: {
  value: string;
  onChange: Dispatch<SetStateAction<string>>;
  onSend(): void;
  onStop(): void;
  streaming: boolean;
  waitSeconds: number;
  /** Transcription is configured: offer the microphone. */
  voice: boolean;
  locale: Locale;
  t: Translate;
  inputRef: RefObject<HTMLTextAreaElement>;
}) {
  const { value, streaming, waitSeconds, t, inputRef } = props;
  const nearLimit = value.length > MAX_CONTENT * 0.8;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSend();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      props.onSend();
    }
  };

  return (
    <form className="chat-form" onSubmit={submit}>
      {waitSeconds > 0 ? (
        <p className="chat-note warn" role="status" data-testid="chat-wait">
          {t('chatRateLimited', { s: waitSeconds })}
        </p>
      ) : null}
      <label htmlFor="chat-input" className="sr-only">
        {t('chatInputLabel')}
      </label>
      <textarea
        id="chat-input"
        ref={inputRef}
        value={value}
        maxLength={MAX_CONTENT}
        rows={2}
        placeholder={t('chatPlaceholder')}
        onChange={(e) => props.onChange(e.target.value)}
        onKeyDown={onKeyDown}
        aria-describedby={nearLimit ? 'chat-length' : undefined}
      />
      {nearLimit ? (
        <p id="chat-length" className="chat-length">
          {t('chatLength', { n: value.length })}
        </p>
      ) : null}
      <div className="chat-controls">
        {props.voice ? (
          <VoiceButton
            locale={props.locale}
            t={t}
            disabled={streaming}
            onText={(text) => {
              props.onChange((current) => (current.trim() ? `${current.trim()} ${text}` : text));
              inputRef.current?.focus();
            }}
          />
        ) : (
          <span />
        )}
        {streaming ? (
          <button type="button" className="button stop" onClick={props.onStop}>
            <Icon name="stop" />
            {t('chatStop')}
          </button>
        ) : (
          <button type="submit" className="button" disabled={!value.trim() || waitSeconds > 0}>
            <Icon name="send" />
            {t('chatSend')}
          </button>
        )}
      </div>
    </form>
  );
}
