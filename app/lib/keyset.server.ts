/**
 * The rows of a download read in keyset chunks, one API call at a time as the file is written (report rows, 'Todos'
 * of a list), one chunk ahead of the writing, so a long export never sits whole in memory. The request's signal is checked before each chunk: an
 * export job that is stopped (over its time limit, its instance stopping: docs/exports.md 'How it runs') or a client
 * that left stops the reads at the next chunk instead of reading on to the end of the period.
 */
export async function* keysetRows<Item>(
  signal: AbortSignal,
  fetchChunk: (after: string) => Promise<{ items: Item[]; next: string | null }>,
) {
  signal.throwIfAborted();
  let ahead: ReturnType<typeof fetchChunk> | null = fetchChunk("");
  try {
    while (ahead) {
      signal.throwIfAborted();
      const chunk: Awaited<ReturnType<typeof fetchChunk>> = await ahead;
      // One chunk ahead: the next is asked for before this one's rows are written, so the database reads it (in its
      // worker thread, or on PostgreSQL) while this thread writes the file (docs/performance.md 'Export flood').
      ahead = chunk.next === null ? null : fetchChunk(chunk.next);
      yield* chunk.items;
    }
  } finally {
    // A reader stopped early (aborted, or the file's write failed) leaves one chunk asked for: its failure is nobody's.
    void ahead?.catch(() => undefined);
  }
}
