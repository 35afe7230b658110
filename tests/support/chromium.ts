/**
 * How every browser test starts Chromium (playwright.config.ts, and the vitest files that drive a page): Debian's
 * Chromium, since Playwright cannot download its own browser on these machines, headless with nothing in the
 * background.
 */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
  ],
};
