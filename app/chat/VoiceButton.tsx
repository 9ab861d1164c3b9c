// The microphone button: record, then transcribe through /api/transcribe, then hand the text back for
// review (never sent on its own). Problems are stated plainly next to the button.
import { useEffect, useRef, useState } from 'react';
import type { Translate } from '../i18n/messages.ts';
import type { Locale } from '../i18n/locales.ts';
import { Icon } from '../components/Icons.tsx';
import { retryAfterSeconds } from './stream.ts';
import { audioMimeType, blobToBase64, classifyMediaError, startRecording, voiceSupported, type Recording } from './voice.ts';

const MAX_SECONDS = 60;

export function VoiceButton({ locale, t, disabled, onText }: { locale: Locale; t: Translate; disabled: boolean; onText(text: string): void }) {
  const [phase, setPhase] = useState<'idle' | 'recording' | 'transcribing'>('idle');
  const [seconds, setSeconds] = useState(0);
  const [note, setNote] = useState<{ text: string; error: boolean } | undefined>();
  const recording = useRef<Recording | null>(null);

  useEffect(() => {
    if (phase !== 'recording') return;
    const started = Date.now();
    const timer = setInterval(() => {
      const elapsed = Math.floor((Date.now() - started) / 1000);
      setSeconds(elapsed);
      if (elapsed >= MAX_SECONDS) void finish();
    }, 250);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [phase]);

  useEffect(() => () => recording.current?.cancel(), []);

  async function begin() {
    setNote(undefined);
    if (!voiceSupported()) {
      setNote({ text: t('voiceUnsupported'), error: true });
      return;
    }
    try {
      recording.current = await startRecording();
      setSeconds(0);
      setPhase('recording');
    } catch (error) {
      const problem = classifyMediaError(error);
      setNote({
        text:
          problem === 'denied'
            ? t('voiceDenied')
            : problem === 'no-mic'
              ? t('voiceNoMic')
              : problem === 'unsupported'
                ? t('voiceUnsupported')
                : t('voiceFailed'),
        error: true,
      });
    }
  }

  async function finish() {
    const current = recording.current;
    if (!current) return;
    recording.current = null;
    setPhase('transcribing');
    try {
      const blob = await current.stop();
      const res = await fetch('/api/transcribe', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ audio: await blobToBase64(blob), mimeType: audioMimeType(current.mimeType), locale }),
      });
      if (!res.ok) {
        const text =
          res.status === 503
            ? t('voiceNotConfigured')
            : res.status === 429
              ? t('chatRateLimited', { s: retryAfterSeconds(res.headers.get('Retry-After')) })
              : t('voiceFailed');
        setNote({ text, error: true });
        return;
      }
      const { text } = (await res.json()) as { text?: string };
      if (!text?.trim()) setNote({ text: t('voiceEmpty'), error: true });
      else {
        onText(text.trim());
        setNote({ text: t('voiceReview'), error: false });
      }
    } catch {
      setNote({ text: t('voiceFailed'), error: true });
    } finally {
      setPhase('idle');
    }
  }

  const recordingNow = phase === 'recording';
  return (
    <div className="voice">
      <button
        type="button"
        className={`icon-button mic${recordingNow ? ' recording' : ''}`}
        onClick={() => void (recordingNow ? finish() : begin())}
        disabled={disabled || phase === 'transcribing'}
        aria-pressed={recordingNow}
        title={recordingNow ? t('voiceStop') : t('voiceStart')}
      >
        <Icon name={recordingNow ? 'stop' : 'mic'} />
        <span className="sr-only">{recordingNow ? t('voiceStop') : t('voiceStart')}</span>
      </button>
      <p className={`voice-note${note?.error ? ' error' : ''}`} role="status" data-testid="voice-note">
        {recordingNow ? t('voiceRecording', { s: seconds }) : phase === 'transcribing' ? t('voiceTranscribing') : (note?.text ?? '')}
      </p>
    </div>
  );
}
