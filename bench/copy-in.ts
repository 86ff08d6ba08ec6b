import type pg from 'pg';

/**
 * `COPY ... FROM STDIN` through the pg driver (no extra package): a submittable query that answers the server's
 * CopyInResponse with the chunks of `source` as CopyData messages (waiting for the socket to drain), then CopyDone.
 * Resolves with the number of rows copied.
 */
type Connection = {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(msg: string): void;
  stream: NodeJS.WritableStream & { writableNeedDrain?: boolean };
};

class CopyIn {
  rows = 0;
  #error: Error | null = null;
  constructor(
    readonly text: string,
    readonly source: AsyncIterable<string>,
    readonly done: (err: Error | null, rows: number) => void,
  ) {}
  submit(connection: Connection) {
    connection.query(this.text);
  }
  handleCopyInResponse(connection: Connection) {
    void (async () => {
      try {
        for await (const chunk of this.source) {
          connection.sendCopyFromChunk(Buffer.from(chunk));
          if (connection.stream.writableNeedDrain)
            await new Promise((r) => connection.stream.once('drain', r));
        }
        connection.endCopyFrom();
      } catch (err) {
        connection.sendCopyFail(String(err));
      }
    })();
  }
  handleCommandComplete(msg: { text?: string }) {
    this.rows = Number(msg.text?.split(' ')[1] ?? 0);
  }
  handleError(err: Error) {
    this.#error = err;
  }
  handleReadyForQuery() {
    this.done(this.#error, this.rows);
  }
  handleRowDescription() {}
  handleDataRow() {}
  handleEmptyQuery() {}
  handlePortalSuspended() {}
}

export function copyIn(client: pg.Client, text: string, source: AsyncIterable<string>): Promise<number> {
  return new Promise((resolve, reject) => {
    // biome-ignore lint/suspicious/noExplicitAny: pg's Submittable type does not describe the copy handlers.
    client.query(new CopyIn(text, source, (err, rows) => (err ? reject(err) : resolve(rows))) as any);
  });
}

/** Joins the lines of `rows` into chunks of about `size` characters. */
export async function* chunked(rows: Iterable<string>, size = 1 << 20): AsyncIterable<string> {
  let buf: string[] = [];
  let n = 0;
  for (const line of rows) {
    buf.push(line);
    n += line.length;
    if (n >= size) {
      yield buf.join('');
      buf = [];
      n = 0;
      // Let the socket's drain and other events run between chunks.
      await new Promise((r) => setImmediate(r));
    }
  }
  if (buf.length) yield buf.join('');
}
