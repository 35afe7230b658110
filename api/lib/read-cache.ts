import type { WriteWatch } from "../db/write-watch.ts";

/**
 * A small in-process cache of answers read from the database, for the reads every page repeats (the bearer token's
 * session and user, the branch list). docs/performance.md 'Caches':
 * - this process forgets an entry as soon as it writes one of the watched tables (db/write-watch.ts), so a sign-out,
 *   a password change or an inactivation served here takes effect on the next request;
 * - an entry lives at most `ttlMs`, which bounds how long a write made elsewhere (another server on the same
 *   PostgreSQL, or psql) goes unseen;
 * - a read that overlaps a write is returned but not stored, and so is an absent answer (undefined);
 * - at most `maxEntries` are kept, the oldest dropped first.
 */
export class ReadCache<V> {
  readonly #entries = new Map<string, { value: V; storedAt: number }>();
  #generation = 0;

  constructor(
    watch: WriteWatch,
    tables: readonly string[],
    private readonly options: { ttlMs: number; maxEntries: number; now?: () => number },
  ) {
    watch.watch(tables, () => this.clear());
  }

  async get<R extends V | undefined>(key: string, load: () => Promise<R>): Promise<R> {
    const now = this.options.now ?? Date.now;
    const hit = this.#entries.get(key);
    if (hit && now() - hit.storedAt < this.options.ttlMs) return hit.value as R;
    const generation = this.#generation;
    const value = await load();
    if (value !== undefined && generation === this.#generation) {
      this.#entries.delete(key);
      if (this.#entries.size >= this.options.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(key, { value, storedAt: now() });
    }
    return value;
  }

  clear() {
    this.#generation += 1;
    this.#entries.clear();
  }
}
