/**
 * `npm run qr-template`: renders public/qr-template.svg (the QR sheet's background, our own design, edited by hand)
 * into public/qr-template.png, the image the PDF embeds once per file (app/lib/qr-codes.server.ts). 300 dpi on A4,
 * opaque RGB: a PNG without an alpha channel goes into the PDF as it is, with no decoding. `--check` exits 1 when the
 * PNG is not the rendering of the current SVG (run by tests/unit/qr-codes.test.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { Resvg } from "@resvg/resvg-js";
import { PNG } from "pngjs";

import { QR_FONT_FILES } from "../app/lib/qr-codes.server.ts";

const publicDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "public");
export const TEMPLATE_SVG = path.join(publicDir, "qr-template.svg");
export const TEMPLATE_PNG = path.join(publicDir, "qr-template.png");
/** A4 at 300 dpi. */
const WIDTH_PX = 2480;

/** The SVG drawn on a white A4 page at 300 dpi: RGBA pixels. */
function renderPixels(svg = readFileSync(TEMPLATE_SVG, "utf8")) {
  return new Resvg(svg, {
    fitTo: { mode: "width", value: WIDTH_PX },
    background: "#ffffff",
    font: {
      fontFiles: [QR_FONT_FILES.normal, QR_FONT_FILES.bold],
      loadSystemFonts: false,
      defaultFontFamily: "Roboto",
    },
  }).render();
}

/** The PNG file: RGB, as the page is opaque white and the alpha channel would only cost the PDF a decoding. */
export function renderTemplate(svg?: string) {
  const rendered = renderPixels(svg);
  const png = new PNG({ width: rendered.width, height: rendered.height });
  png.data = Buffer.from(rendered.pixels);
  return PNG.sync.write(png, { colorType: 2, inputColorType: 6, inputHasAlpha: true, deflateLevel: 9 });
}

/** Whether the committed PNG has the same pixels as a fresh rendering of the SVG. */
export function templateIsCurrent() {
  const fresh = renderPixels();
  const committed = PNG.sync.read(readFileSync(TEMPLATE_PNG));
  return (
    fresh.width === committed.width &&
    fresh.height === committed.height &&
    Buffer.from(fresh.pixels).equals(committed.data)
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--check")) {
    const current = templateIsCurrent();
    console.log(current ? "public/qr-template.png is current" : "public/qr-template.png is stale: npm run qr-template");
    process.exitCode = current ? 0 : 1;
  } else {
    const png = renderTemplate();
    writeFileSync(TEMPLATE_PNG, png);
    console.log(`wrote ${path.relative(process.cwd(), TEMPLATE_PNG)} (${Math.round(png.length / 1024)} KB)`);
  }
}
