/**
 * The script a phone downloads on a page's first load (docs/performance.md 'JS budget'): at most 120 KB gzip on any
 * back-office page, 30 KB on the field app's, none on the visitors' room page. Reads the built app (`npm run build`
 * first) as `npx tsx bench/js-budget.ts` does, so a shared import that creeps a page over its budget fails here.
 */
import path from "node:path";

import { expect, test } from "vitest";

import { measureJsBudget } from "../../bench/js-budget.ts";

const root = path.resolve(import.meta.dirname, "..", "..");
// Measured once for both tests: every route's files read and gzipped.
const measured = measureJsBudget(root);

test("every page's first load stays within its gzip JS budget", async () => {
  const pages = await measured;
  const over = pages
    .filter((page) => page.gzipBytes > page.budget)
    .map((page) => `${page.url}: ${(page.gzipBytes / 1024).toFixed(1)} KB > ${(page.budget / 1024).toFixed(1)} KB`);
  expect(over).toEqual([]);
});

test("the visitors' room page loads no script, the field app's pages only their own", async () => {
  const pages = await measured;
  const byUrl = new Map(pages.map((page) => [page.url, page]));
  expect(byUrl.get("/info/ambiente/:id")).toMatchObject({ files: 0, gzipBytes: 0 });
  expect(byUrl.get("/campo")).toMatchObject({ budget: 30 * 1024, files: 2 });
});
