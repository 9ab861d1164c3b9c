// The agent's tool steps under a reply, as they happen: a spinner while a tool runs, a check and the
// number of sources it found once it is done.
import type { MessageKey, Translate } from '../i18n/messages.ts';
import { Icon } from '../components/Icons.tsx';
import type { Step } from './conversation.ts';

export function ToolSteps({ steps, t }: { steps: Step[]; t: Translate }) {
  return (
    <ol className="chat-steps">
      {steps.map((step, i) => (
        <li key={i} className={step.done ? 'done' : 'running'}>
          {step.done ? <Icon name="check" size={14} /> : <span className="spinner" aria-hidden="true" />}
          <span className="step-label">
            {stepLabel(step, t)}
            {step.done && step.found !== undefined ? <span className="step-count">{t('chatToolFound', { n: step.found })}</span> : null}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** Each tool's message, and the input it names (the query, the slug …); other tools are named as they are. */
const stepMessages = new Map<string, [MessageKey, string?]>([
  ['search_subject', ['chatToolSearch', 'query']],
  ['get_entry', ['chatToolEntry', 'slug']],
  ['list_experience', ['chatToolList']],
  ['list_lenses', ['chatToolLenses']],
  ['get_document', ['chatToolDocument', 'name']],
  ['get_brief', ['chatToolBrief']],
]);

function stepLabel(step: Step, t: Translate): string {
  const known = stepMessages.get(step.name);
  if (!known) return t('chatToolOther', { name: step.name });
  const [key, input] = known;
  return t(key, input ? { [input]: String(step.input?.[input] ?? '') } : undefined);
}
