// Long work on the main thread in slices: `pause()` between steps yields to the event loop once the
// current slice has run for `sliceMs`, so requests keep being answered while a build runs.
export type Pause = () => Promise<void> | void;

export function slicer(sliceMs = 8): Pause {
  let started = performance.now();
  return () => {
    if (performance.now() - started < sliceMs) return;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        started = performance.now();
        resolve();
      }),
    );
  };
}

/** For callers with nothing else to serve (tests, benchmarks): never yields. */
export const noPause: Pause = () => {};
