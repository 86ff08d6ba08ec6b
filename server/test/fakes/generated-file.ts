import type { ServerResponse } from 'node:http';

/**
 * A large provider file made up as it is sent (a test's attack of huge media), never held whole: `head` (its
 * first bytes, e.g. a JPEG signature) then filler up to `size` bytes, written as the socket takes it.
 */
export type GeneratedFile = {
  size: number;
  type: string;
  head?: Uint8Array;
  /** Announce the size in Content-Length (default); false: a chunked answer that tells nothing up front. */
  announce?: boolean;
  /** A pause between chunks (ms), so that downloads overlap for a test of how many run at once. */
  pauseMs?: number;
  /** The connection is dropped after this many bytes (a provider failing midway). */
  failAfter?: number;
};

/** What a fake saw of its generated files: bytes sent, downloads at once (now and at most), cut-off ones. */
export type GeneratedStats = { sent: number; active: number; peak: number; aborted: number };

export const generatedStats = (): GeneratedStats => ({ sent: 0, active: 0, peak: 0, aborted: 0 });

const CHUNK = 64 * 1024;
const FILLER = Buffer.alloc(CHUNK, 0x5a);

/** Sends one generated file, honouring backpressure; counts it in `stats`. */
export async function sendGenerated(res: ServerResponse, f: GeneratedFile, stats: GeneratedStats) {
  res.writeHead(200, {
    'content-type': f.type,
    ...(f.announce === false ? {} : { 'content-length': String(f.size) }),
  });
  stats.active++;
  stats.peak = Math.max(stats.peak, stats.active);
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  try {
    let left = f.size;
    const head = Buffer.from(f.head ?? []);
    if (head.length) {
      res.write(head);
      left -= head.length;
      stats.sent += head.length;
    }
    while (left > 0 && !closed) {
      if (f.pauseMs) await new Promise((r) => setTimeout(r, f.pauseMs));
      if (f.failAfter !== undefined && f.size - left >= f.failAfter) {
        res.destroy();
        break;
      }
      const chunk = left >= CHUNK ? FILLER : FILLER.subarray(0, left);
      left -= chunk.length;
      stats.sent += chunk.length;
      // The last bytes end the answer at once: the download counts as over before the client can see them all.
      if (left === 0) {
        res.end(chunk);
        break;
      }
      if (!res.write(chunk) && !closed)
        await new Promise<void>((r) => {
          const go = () => {
            res.off('drain', go);
            res.off('close', go);
            r();
          };
          res.on('drain', go);
          res.on('close', go);
        });
    }
    if (closed) stats.aborted++;
    else if (!res.writableEnded) res.end();
  } finally {
    stats.active--;
  }
}
