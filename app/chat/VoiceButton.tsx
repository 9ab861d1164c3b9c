// The microphone button: record, then transcribe through /api/transcribe, then hand the text back for
// review (never sent on its own). Problems are stated plainly next to the button.
import { useEffect, useRef, useState } from 'react';
import { fill } from '../i18n/format.ts';
import type { Strings } from '../i18n/dictionary.ts';
import type { Locale } from '../i18n/locales.ts';
import { Icon } from '../components/Icons.tsx';
import { retryAfterSeconds } from './stream.ts';
import { audioMimeType, blobToBase64, classifyMediaError, startRecording, voiceSupported, type Recording } from './voice.ts';

const MAX_SECONDS = 60;

export function VoiceButton({ locale, strings, disabled, onText }: { locale: Locale; strings: Strings; disabled: boolean; onText(text: string): void }) {
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
      setNote({ text: strings.voiceUnsupported, error: true });
      return;
    }
    try {
      recording.current = await startRecording();
      setSeconds(0);
      setPhase('recording');
    } catch (error) {
      const problem = classifyMediaError(error);
      setNote({ text: problem === 'denied' ? strings.voiceDenied : problem === 'no-mic' ? strings.voiceNoMic : problem === 'unsupported' ? strings.voiceUnsupported : strings.voiceFailed, error: true });
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
          res.status === 503 ? strings.voiceNotConfigured : res.status === 429 ? fill(strings.chatRateLimited, { s: retryAfterSeconds(res.headers.get('Retry-After')) }) : strings.voiceFailed;
        setNote({ text, error: true });
        return;
      }
      const { text } = (await res.json()) as { text?: string };
      if (!text?.trim()) setNote({ text: strings.voiceEmpty, error: true });
      else {
        onText(text.trim());
        setNote({ text: strings.voiceReview, error: false });
      }
    } catch {
      setNote({ text: strings.voiceFailed, error: true });
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
        title={recordingNow ? strings.voiceStop : strings.voiceStart}
      >
        <Icon name={recordingNow ? 'stop' : 'mic'} />
        <span className="sr-only">{recordingNow ? strings.voiceStop : strings.voiceStart}</span>
      </button>
      <p className={`voice-note${note?.error ? ' error' : ''}`} role="status" data-testid="voice-note">
        {recordingNow ? fill(strings.voiceRecording, { s: seconds }) : phase === 'transcribing' ? strings.voiceTranscribing : note?.text ?? ''}
      </p>
    </div>
  );
}
