import { pdfErrorOf, type PdfDocDefinition, type PdfRenderer } from "../../api/domain/pdf";
import { noticeResponse } from "../../api/lib/http-guards";

import { downloadHeaders } from "./downloads.server";

/**
 * A PDF download built by the server's pool (api/lib/pdf-pool.ts, handed over as `context.pdf`): the bytes as an
 * attachment named `fileName`. When the pool refuses (queue full, server shutting down) or stops the document at its
 * time limit, the answer is 503 with the pool's Portuguese message (a plain page, or JSON to a script) and, for a
 * full queue, Retry-After. A document pdfmake rejects is a bug: it is thrown, and the route's error path answers.
 * The request's signal goes along, so a download the user cancelled leaves the queue (or frees its worker).
 */
export async function pdfResponse(
  { context, request }: { context: { pdf: PdfRenderer }; request: Request },
  doc: PdfDocDefinition,
  fileName: string,
): Promise<Response> {
  let pdf: Uint8Array<ArrayBuffer>;
  try {
    pdf = await context.pdf.render(doc, { signal: request.signal });
  } catch (error) {
    const refused = pdfErrorOf(error);
    if (!refused || refused.code === "failed") throw error;
    const retry: Record<string, string> = refused.retryAfterSeconds
      ? { "retry-after": String(refused.retryAfterSeconds) }
      : {};
    return noticeResponse(request, 503, "PDF indisponível", refused.message, retry);
  }
  return new Response(pdf, { headers: downloadHeaders("application/pdf", fileName, pdf.byteLength) });
}
