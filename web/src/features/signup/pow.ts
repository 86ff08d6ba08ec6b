/** The ALTCHA proof of work: the number n ≤ max with hex SHA-256(salt + n) = challenge, searched in chunks. */
export type PowTask = { challenge: string; salt: string; max: number };

const hex = (buf: ArrayBuffer) =>
  Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');

/** Searches [0, max]; yields to the caller every `chunk` hashes (a worker ignores it, the main thread breathes). */
export async function solvePow(task: PowTask, signal?: AbortSignal, chunk = 500): Promise<number | null> {
  const encoder = new TextEncoder();
  for (let start = 0; start <= task.max; start += chunk) {
    if (signal?.aborted) return null;
    const end = Math.min(task.max, start + chunk - 1);
    const hashes = [];
    for (let n = start; n <= end; n++)
      hashes.push(crypto.subtle.digest('SHA-256', encoder.encode(task.salt + n)));
    const found = (await Promise.all(hashes)).findIndex((h) => hex(h) === task.challenge);
    if (found >= 0) return start + found;
    await new Promise((r) => setTimeout(r, 0));
  }
  return null;
}
