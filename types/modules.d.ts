declare module 'wink-bm25-text-search' {
  interface BM25Engine {
    defineConfig(config: { fldWeights: Record<string, number>; bm25Params?: { k1?: number; b?: number; k?: number }; ovFieldNames?: string[] }): boolean;
    definePrepTasks(tasks: Array<(input: any) => any>, field?: string): number;
    addDoc(doc: Record<string, string>, id: string | number): number;
    consolidate(fp?: number): boolean;
    search(text: string, limit?: number, filter?: (fieldValues: any, params: any) => boolean, params?: unknown): Array<[string, number]>;
    exportJSON(): string;
    importJSON(json: string): boolean;
    reset(): boolean;
  }
  const bm25: () => BM25Engine;
  export default bm25;
}
declare module 'wink-nlp-utils' {
  const nlp: {
    string: { stem(word: string): string };
    tokens: { removeWords(tokens: string[], stopWords?: unknown): string[] };
  };
  export default nlp;
}
declare module 'autocannon' {
  interface Result {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
  }
  function autocannon(options: {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    method?: string;
    body?: string;
    /** Cycled through in order by every connection. */
    requests?: Array<{ method?: string; path?: string; headers?: Record<string, string>; body?: string }>;
  }): Promise<Result>;
  export default autocannon;
}
