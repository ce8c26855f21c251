/**
 * Group commit: items added during one turn of the event loop are written together by `write` (one
 * statement, one commit, one WAL flush instead of one each). Every caller's promise settles only after
 * the write that carries its item has committed, so nothing is acknowledged before it is durable. The same
 * serves reads that may share a round trip (the per-request token lookup: one statement for a turn's ids).
 * If a batch fails, its items are retried one by one so that one bad item cannot fail its neighbours.
 */
export class Batcher<T, R> {
  private pending: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  private scheduled = false;

  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly maxBatch = 200,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.maxBatch) void this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.pending.splice(0);
    if (batch.length === 0) return;
    try {
      const results = await this.write(batch.map((b) => b.item));
      batch.forEach((b, i) => b.resolve(results[i]));
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      await Promise.all(
        batch.map((b) =>
          this.write([b.item]).then(
            ([r]) => b.resolve(r),
            (e: unknown) => b.reject(e),
          ),
        ),
      );
    }
  }
}
