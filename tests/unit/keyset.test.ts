/**
 * The keyset reader of downloads (app/lib/keyset.server.ts): chunks are fetched one at a time, one ahead of the rows
 * pulled, and a request aborted (an export job stopped: docs/exports.md) fetches no chunk more.
 */
import { describe, expect, test } from "vitest";

import { keysetRows } from "../../app/lib/keyset.server";

/** Ten chunks of three rows, keyed by the last row's number; `asked` records each chunk fetched. */
function source() {
  const asked: string[] = [];
  const fetchChunk = async (after: string) => {
    asked.push(after);
    const from = after === "" ? 0 : Number(after);
    const items = [from + 1, from + 2, from + 3];
    return { items, next: from + 3 >= 30 ? null : String(from + 3) };
  };
  return { asked, fetchChunk };
}

describe("keysetRows", () => {
  test("pulls every chunk in turn, each after the last row of the one before, and ends at next: null", async () => {
    const { asked, fetchChunk } = source();
    const rows: number[] = [];
    for await (const row of keysetRows(new AbortController().signal, fetchChunk)) rows.push(row);
    expect(rows).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
    expect(asked).toEqual(["", "3", "6", "9", "12", "15", "18", "21", "24", "27"]);
  });

  test("once the request is aborted mid-way, no chunk more is fetched: the count stays and the reader throws the abort", async () => {
    const { asked, fetchChunk } = source();
    const stop = new AbortController();
    const rows = keysetRows(stop.signal, fetchChunk);
    const read: number[] = [];
    for (let index = 0; index < 6; index++) read.push((await rows.next()).value as number);
    expect(asked).toEqual(["", "3", "6"]);
    stop.abort();
    await expect(rows.next()).rejects.toMatchObject({ name: "AbortError" });
    expect(asked).toEqual(["", "3", "6"]);
    expect(read).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await rows.next()).toEqual({ done: true, value: undefined });
  });

  test("the next chunk is asked for while this one's rows are read, not after: one ahead, never more", async () => {
    const { asked, fetchChunk } = source();
    const rows = keysetRows(new AbortController().signal, fetchChunk);
    expect((await rows.next()).value).toBe(1);
    expect(asked).toEqual(["", "3"]);
    await rows.next();
    await rows.next();
    expect(asked).toEqual(["", "3"]);
  });

  test("a chunk asked for ahead that fails after the reader stopped is no unhandled rejection", async () => {
    let calls = 0;
    const rows = keysetRows(new AbortController().signal, async () => {
      calls += 1;
      if (calls > 1) throw new Error("o banco caiu");
      return { items: [1, 2, 3], next: "3" };
    });
    expect((await rows.next()).value).toBe(1);
    await rows.return(undefined);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toBe(2);
  });
});
