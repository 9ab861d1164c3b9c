// The model provider: @ai-sdk/openai through Chat Completions, so any OpenAI-compatible server works
// (OpenAI, Ollama, llama.cpp, vLLM) via OPENAI_BASE_URL. Absent when nothing is configured, and then the
// provider's code is never loaded (the model SDKs are imported on first use: about 40 MB a process without chat does not need).
import type { LanguageModel, TranscriptionModel } from 'ai';
import type { Config } from './config.server.ts';

export interface Models {
  chat: LanguageModel;
  translate: LanguageModel;
  transcription: TranscriptionModel;
}

export async function createModels(config: Config): Promise<Models | undefined> {
  if (!config.chatConfigured) return undefined;
  const { createOpenAI } = await import('@ai-sdk/openai');
  // Local servers need no key, but the client insists on one: send a placeholder, never a real secret.
  const provider = createOpenAI({ apiKey: config.OPENAI_API_KEY ?? 'not-needed', baseURL: config.OPENAI_BASE_URL });
  return {
    chat: provider.chat(config.CHAT_MODEL),
    translate: provider.chat(config.TRANSLATE_MODEL),
    transcription: provider.transcription(config.TRANSCRIBE_MODEL),
  };
}

/** A provider failure in one line a person can read (the SDK's messages can be long and multi-line). */
export function describeProviderError(error: unknown): string {
  const e = error as { message?: string; statusCode?: number };
  const status = e?.statusCode ? ` (HTTP ${e.statusCode})` : '';
  return `${(e?.message ?? String(error)).split('\n')[0]!.slice(0, 200)}${status}`;
}
