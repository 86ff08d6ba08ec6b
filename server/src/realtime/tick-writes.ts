import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

/** A text frame: a string, or its UTF-8 bytes when one event goes to many sockets (encoded once, not per socket). */
export type Frame = string | Buffer;

/**
 * Frames sent to one socket within one tick leave in one write: its TCP socket is corked on the tick's first frame
 * and uncorked once the tick's work is done. Events read together (a burst off the bus, a replay, an event and its
 * chat's counters) then cost one system call per socket instead of one per frame, which is what fan-out to
 * thousands of sockets spends its time on (bench/README.md, "One write per socket per tick"). `_socket` is ws's own
 * field: it has no public accessor for the TCP socket.
 */
export class TickWrites {
  readonly #corked: Socket[] = [];

  /** Call before sending a frame to `ws`: its writes of this tick are held and leave together. */
  hold(ws: WebSocket): void {
    const raw = (ws as unknown as { _socket?: Socket })._socket;
    if (!raw || raw.writableCorked) return;
    raw.cork();
    this.#corked.push(raw);
    if (this.#corked.length === 1) process.nextTick(() => this.#release());
  }

  #release(): void {
    for (const raw of this.#corked.splice(0)) raw.uncork();
  }
}
