export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** A download's headers: its type, the spec's file name, its length when known, never cached (the data changes). */
export function downloadHeaders(contentType: string, fileName: string, byteLength?: number): Record<string, string> {
  return {
    "content-type": contentType,
    "content-disposition": `attachment; filename="${fileName}"`,
    ...(byteLength === undefined ? {} : { "content-length": String(byteLength) }),
    "cache-control": "private, no-store",
  };
}
