/**
 * The fuzz suites' seeded choices (tests/api/fuzz.test.ts over the API, tests/api/web-fuzz.test.ts over the web app):
 * mulberry32, a tiny seeded PRNG, so a failure replays with the same FUZZ_SEED.
 */
export function seededChoices(seed: number) {
  let a = seed >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
  return {
    random,
    pick: <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)],
    chance: (p: number) => random() < p,
  };
}
