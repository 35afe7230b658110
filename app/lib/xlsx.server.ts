import { PassThrough } from "node:stream";

import { TZDate } from "@date-fns/tz";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { format } from "date-fns";
import ExcelJS from "exceljs";

import { BUSINESS_TIME_ZONE } from "./format";

/**
 * Excel downloads (spec 000 §9: the displayed page). Written with exceljs's streaming writer, so a big list is
 * never held whole in memory; bold header, column widths, optional cell fills (risk colours).
 */
export type SheetColumn<Row> = {
  header: string;
  width: number;
  value: (row: Row) => string | number | null;
  fill?: (row: Row) => string | null;
};

/** Text that a spreadsheet would read as a formula (=, +, -, @, tab, CR) is prefixed with an apostrophe. */
export function neutralise(value: string) {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function xlsxResponse<Row>(fileName: string, sheetName: string, columns: SheetColumn<Row>[], rows: Row[]) {
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((column) => ({ header: column.header, width: column.width }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for (const row of rows) {
    const line = sheet.addRow(
      columns.map((column) => {
        const value = column.value(row);
        return typeof value === "string" ? neutralise(value) : value;
      }),
    );
    columns.forEach((column, index) => {
      const fill = column.fill?.(row);
      if (fill)
        line.getCell(index + 1).fill = {
          type: "pattern",
          pattern: "solid",
          fgColor: { argb: `FF${fill.replace("#", "").toUpperCase()}` },
        };
    });
    line.commit();
  }
  sheet.commit();
  void workbook.commit().catch((error: unknown) => output.destroy(error as Error));
  return new Response(createReadableStreamFromReadable(output), {
    headers: {
      "content-type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "content-disposition": `attachment; filename="${fileName}"`,
      "cache-control": "no-store",
    },
  });
}

/** DD-MM-YYYY of today in the business time zone, for file names. */
export function fileDate(now = new Date()) {
  return format(new TZDate(now, BUSINESS_TIME_ZONE), "dd-MM-yyyy");
}
