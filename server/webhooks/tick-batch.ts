/**
 * Gathers the calls made in one turn of the event loop, and those made while the previous batch is under way,
 * into one call of `run` (issue 27: a statement per delivery was most of the fan-out's cost, in PostgreSQL and
 * in postgres.js's socket writes). One batch runs at a time: while it does, the next one fills, so the busier
 * the process the larger the batches, and a lone call waits only for the end of its turn. With `lingerMs`, a
 * batch also waits that long after its first call for more (for work nobody waits on). `run` answers one
 * result per item, in order; when it throws, every call of that batch rejects with the error.
 */
export class TickBatch<I, O> {
  #waiting: { item: I; resolve: (out: O) => void; reject: (err: unknown) => void }[] = [];
  #scheduled = false;
  #running = false;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly max = 500,
    private readonly lingerMs = 0,
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#running) return;
    this.#scheduled = true;
    const flush = () => {
      this.#scheduled = false;
      void this.#flush();
    };
    if (this.lingerMs > 0) setTimeout(flush, this.lingerMs);
    else setImmediate(flush);
  }

  async #flush(): Promise<void> {
    const batch = this.#waiting.splice(0, this.max);
    if (!batch.length) return;
    this.#running = true;
    try {
      const out = await this.run(batch.map((b) => b.item));
      for (const [i, b] of batch.entries()) b.resolve(out[i] as O);
    } catch (err) {
      for (const b of batch) b.reject(err);
    } finally {
      this.#running = false;
      if (this.#waiting.length) this.#schedule();
    }
  }
}
