import { WebSocket } from 'ws';

// biome-ignore lint/suspicious/noExplicitAny: tests read payloads of many shapes
export type Frame = { id: string; type: string; payload: any };

/** A test client of `/api/realtime`: collects frames and waits for conditions on them. */
export class RealtimeClient {
  readonly frames: Frame[] = [];
  closeCode: number | undefined;
  #waiters: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as Frame);
      for (const w of this.#waiters) w();
    });
    ws.on('close', (code) => {
      this.closeCode = code;
      for (const w of this.#waiters) w();
    });
  }

  /** Opens a socket and resolves after the first frame (hello or resync). */
  static async connect(baseUrl: string, token: string, lastEventId?: string): Promise<RealtimeClient> {
    const url = new URL('/api/realtime', baseUrl.replace(/^http/, 'ws'));
    url.searchParams.set('token', token);
    if (lastEventId !== undefined) url.searchParams.set('lastEventId', lastEventId);
    const ws = new WebSocket(url);
    const client = new RealtimeClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
    await client.waitFor((f) => f.length >= 1);
    return client;
  }

  /** Events only (no hello/resync/pong). */
  get events(): Frame[] {
    return this.frames.filter((f) => !['hello', 'resync', 'pong'].includes(f.type));
  }

  get lastId(): string {
    return this.frames[this.frames.length - 1].id;
  }

  waitFor(pred: (frames: Frame[]) => boolean, timeoutMs = 5000): Promise<void> {
    if (pred(this.frames) || this.closeCode !== undefined) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== check);
        reject(new Error(`timed out; frames: ${JSON.stringify(this.frames.map((f) => [f.id, f.type]))}`));
      }, timeoutMs);
      const check = () => {
        if (!pred(this.frames) && this.closeCode === undefined) return;
        clearTimeout(timer);
        this.#waiters = this.#waiters.filter((w) => w !== check);
        resolve();
      };
      this.#waiters.push(check);
    });
  }

  waitClosed(timeoutMs = 5000): Promise<number> {
    return this.waitFor(() => false, timeoutMs).then(() => this.closeCode ?? -1);
  }

  /** Waits for an event carrying payload.marker === marker. */
  waitMarker(marker: string, timeoutMs = 5000): Promise<void> {
    return this.waitFor((fs) => fs.some((f) => f.payload?.marker === marker), timeoutMs);
  }

  close(): void {
    this.ws.terminate();
  }
}
