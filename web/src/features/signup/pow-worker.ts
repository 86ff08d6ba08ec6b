/// <reference lib="webworker" />
import { type PowTask, solvePow } from './pow.ts';

/** Solves one task off the main thread and answers {number} (null when none is found). */
self.onmessage = async (e: MessageEvent<PowTask>) => {
  self.postMessage({ number: await solvePow(e.data, undefined, 2000) });
};
