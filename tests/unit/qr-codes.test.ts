import { Resvg } from "@resvg/resvg-js";
import jpeg from "jpeg-js";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { extractText, extractTextItems, getDocumentProxy } from "unpdf";
import { describe, expect, test } from "vitest";

import {
  QR_IMAGE_SIZE,
  QR_SHEET,
  qrBulkPdfFileName,
  qrContent,
  qrImage,
  qrImageFileName,
  qrPdf,
  qrPdfFileName,
  type QrSheet,
} from "../../app/lib/qr-codes.server.ts";
import { templateIsCurrent } from "../../scripts/qr-template.ts";

const PUBLIC_URL = "https://limpeza.example.com.br";
const QR = "0a1b2c3d4e5f6071";
const MM = 72 / 25.4;

/** The text a QR code image holds, read back with jsQR from its RGBA pixels. */
function decode(image: { data: Uint8Array | Buffer; width: number; height: number }) {
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

async function readAll(stream: AsyncIterable<unknown>) {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const pdfOf = async (environments: Omit<QrSheet, "qrCodigo">[]) =>
  new Uint8Array(
    await readAll(
      await qrPdf(
        environments.map((sheet) => ({ ...sheet, qrCodigo: QR })),
        PUBLIC_URL,
      ),
    ),
  );
const words = (text: string) => text.replace(/\s+/g, " ").trim();

describe("qrContent", () => {
  test("is the public room page of the environment, under PUBLIC_URL, with the room's QR value", () => {
    expect(qrContent({ id: 42, qrCodigo: QR }, PUBLIC_URL)).toBe(`${PUBLIC_URL}/info/ambiente/42?qr=${QR}`);
    expect(qrContent({ id: 7, qrCodigo: QR }, "http://localhost:3000/")).toBe(
      `http://localhost:3000/info/ambiente/7?qr=${QR}`,
    );
  });

  test("refuses an id that is not a positive whole number", () => {
    for (const id of [0, -1, 1.5, Number.NaN])
      expect(() => qrContent({ id, qrCodigo: QR }, PUBLIC_URL)).toThrow(RangeError);
  });

  test("refuses a QR value that is not 16 hex digits (nothing else goes into the printed URL)", () => {
    for (const qrCodigo of ["", "0123456789ABCDEF", "0123456789abcde", "0123456789abcdef0", "&x=1"])
      expect(() => qrContent({ id: 1, qrCodigo }, PUBLIC_URL)).toThrow(RangeError);
  });
});

describe("qrImage", () => {
  const content = qrContent({ id: 1234, qrCodigo: QR }, PUBLIC_URL);

  test("PNG: 600 px, decodes back to the content", async () => {
    const { body, contentType } = await qrImage(content, "png");
    expect(contentType).toBe("image/png");
    const png = PNG.sync.read(body as Buffer);
    expect([png.width, png.height]).toEqual([QR_IMAGE_SIZE, QR_IMAGE_SIZE]);
    expect(decode(png)).toBe(`${PUBLIC_URL}/info/ambiente/1234?qr=${QR}`);
  });

  test("JPEG: a real JPEG of 600 px that decodes back to the content", async () => {
    const { body, contentType } = await qrImage(content, "jpeg");
    expect(contentType).toBe("image/jpeg");
    expect([...(body as Buffer).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const image = jpeg.decode(body as Buffer, { useTArray: true, formatAsRGBA: true });
    expect([image.width, image.height]).toEqual([QR_IMAGE_SIZE, QR_IMAGE_SIZE]);
    expect(decode(image)).toBe(`${PUBLIC_URL}/info/ambiente/1234?qr=${QR}`);
  });

  test("SVG: one SVG element with the code's path, which an SVG renderer draws and jsQR reads", async () => {
    const { body, contentType } = await qrImage(content, "svg");
    expect(contentType).toBe("image/svg+xml");
    const svg = body as string;
    expect(svg.trim()).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*viewBox="0 0 \d+ \d+"[^>]*>.*<\/svg>$/s,
    );
    expect(svg).toMatch(/<path [^>]*d="M[^"]+"/);
    const rendered = new Resvg(svg).render();
    expect(rendered.width).toBe(QR_IMAGE_SIZE);
    expect(decode({ data: rendered.pixels, width: rendered.width, height: rendered.height })).toBe(content);
  });
});

describe("file names", () => {
  test("images: QRCODE-{ID}.{format}; one sheet: QRCODE-{ID}.pdf", () => {
    expect(qrImageFileName(15, "png")).toBe("QRCODE-15.png");
    expect(qrImageFileName(15, "jpeg")).toBe("QRCODE-15.jpeg");
    expect(qrImageFileName(15, "svg")).toBe("QRCODE-15.svg");
    expect(qrPdfFileName(15)).toBe("QRCODE-15.pdf");
  });

  test("bulk: QRCODES-YYYYMMDD-HHmm.pdf at that minute in Brazil (UTC-3), not in UTC", () => {
    // 02:30 UTC on 4 March is 23:30 on 3 March in São Paulo and Fortaleza.
    expect(qrBulkPdfFileName(new Date("2025-03-04T02:30:59Z"))).toBe("QRCODES-20250303-2330.pdf");
    expect(qrBulkPdfFileName(new Date("2025-12-31T13:05:00Z"))).toBe("QRCODES-20251231-1005.pdf");
  });
});

describe("qrPdf", () => {
  test("one A4 page per environment, in order, each with its name", async () => {
    const environments = [
      { id: 1, name: "Recepção" },
      { id: 2, name: "Sala de espera — Pediatria" },
      { id: 3, name: "Banheiro masculino 2º andar" },
    ];
    const pdf = await getDocumentProxy(await pdfOf(environments));
    expect(pdf.numPages).toBe(3);
    const page = await pdf.getPage(1);
    const [, , width, height] = page.view;
    expect([Math.round(width / MM), Math.round(height / MM)]).toEqual([210, 297]);
    const { text } = await extractText(pdf, { mergePages: false });
    environments.forEach((environment, index) => expect(words(text[index])).toContain(environment.name));
  });

  test("a long name wraps inside the 110 mm column below the code, on the same page", async () => {
    const name =
      "Centro de Material e Esterilização — área de preparo, acondicionamento e esterilização de artigos críticos, bloco B";
    const pdf = await getDocumentProxy(await pdfOf([{ id: 9, name }]));
    expect(pdf.numPages).toBe(1);
    const { items } = await extractTextItems(pdf);
    const lines = items[0].filter((item) => item.str.trim() && name.includes(item.str.trim()));
    expect(words(lines.map((item) => item.str).join(" "))).toBe(name);
    expect(lines.length).toBeGreaterThan(1);
    const { x, width } = QR_SHEET.name;
    const pageHeight = QR_SHEET.page.height * MM;
    for (const line of lines) {
      expect(line.x).toBeGreaterThanOrEqual(x * MM - 0.5);
      expect(line.x + line.width).toBeLessThanOrEqual((x + width) * MM + 0.5);
      // Below the code (PDF y grows upwards from the bottom of the page).
      expect(pageHeight - line.y).toBeGreaterThan((QR_SHEET.qr.y + QR_SHEET.qr.size) * MM);
    }
    // Centred on the code's axis (within a millimetre: pdfkit counts a line's trailing space when it centres it).
    const widest = lines.reduce((a, b) => (b.width > a.width ? b : a));
    expect(Math.abs(widest.x + widest.width / 2 - (QR_SHEET.qr.x + QR_SHEET.qr.size / 2) * MM)).toBeLessThan(MM);
  });

  test("a name too long for the box ends with an ellipsis instead of spilling onto another page", async () => {
    const pdf = await getDocumentProxy(await pdfOf([{ id: 10, name: "Ala ".repeat(400).trim() }]));
    expect(pdf.numPages).toBe(1);
    const { text } = await extractText(pdf, { mergePages: false });
    expect(words(text[0])).toMatch(/^(Ala )+A?l?a?…/m);
  });

  test("an empty selection rejects before any byte is written", async () => {
    await expect(qrPdf([], PUBLIC_URL)).rejects.toThrow(RangeError);
  });

  test("pulls the environments only as fast as the reader takes the pages, and stops when the reader goes", async () => {
    const state = { pulled: 0, closed: false };
    async function* environments() {
      try {
        for (let id = 1; id <= 2_000; id++) {
          state.pulled++;
          yield { id, name: `Ambiente ${id}`, qrCodigo: QR };
        }
      } finally {
        state.closed = true;
      }
    }
    const stream = await qrPdf(environments(), PUBLIC_URL);
    // Nobody reads for a while: drawing stops once the stream's buffer is full.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(state.pulled).toBeLessThan(200);
    stream.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(state.closed).toBe(true);
    expect(state.pulled).toBeLessThan(200);
  });
});

test("public/qr-template.png is the rendering of public/qr-template.svg (npm run qr-template)", () => {
  expect(templateIsCurrent()).toBe(true);
});
