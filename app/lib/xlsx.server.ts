import { PassThrough } from "node:stream";

import { TZDate } from "@date-fns/tz";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { format } from "date-fns";
import ExcelJS from "exceljs";

import { XLSX_TYPE } from "./downloads.server";
import { BUSINESS_TIME_ZONE } from "./format";

/**
 * Excel downloads (spec 000 §9): bold header, column widths, optional cell fills (risk colours). Rows come from an
 * iterable or an async iterable (e.g. an async generator that fetches keyset chunks from the API) and go through
 * exceljs's streaming writer into the response as the client reads it, so a 100,000-row export holds flat memory.
 *
 * Text is written as typed, with no apostrophe in front of = + - @ (issue 23: a floor typed '-1' showed as "'-1").
 * In xlsx a cell holds a formula only in an <f> element (ECMA-376 part 1, 18.3.1.4); a string cell's text is a
 * value, never parsed. Without shared strings exceljs writes a string as `t="str"` with the text in <v> and no <f>
 * (tests/unit/xlsx.test.ts reads the sheet's XML), so '=1+1' stays the text =1+1. The apostrophe is a CSV defence
 * (a CSV cell has no type: the spreadsheet parses it); the app writes no CSV of user data (its CSV downloads are
 * fixed templates), so a CSV export added later needs that rule, not this writer.
 */
export type SheetColumn<Row> = {
  header: string;
  width: number;
  /** A cell's value; a link (e.g. to a photo: the streaming writer cannot embed images) as { text, hyperlink }. */
  value: (row: Row) => string | number | null | { text: string; hyperlink: string };
  fill?: (row: Row) => string | null;
};

/** The style of every cell without a fill: one shared object (never changed). */
const PLAIN_STYLE: Partial<ExcelJS.Style> = Object.freeze({});

/** Where the rows come from: an array, a generator, or an async generator (pulled only as fast as the client reads). */
export type RowSource<Row> = AsyncIterable<Row> | Iterable<Row>;

export type XlsxOptions = {
  /** Called once when the row source (or the writer) fails after the download has begun; the body is aborted anyway. */
  onError?: (error: unknown) => void;
};

/** A writable that may be over its high-water mark ('drain' comes when it is not). */
type Drainable = NodeJS.EventEmitter & {
  writableNeedDrain?: boolean;
  _writableState?: { needDrain?: boolean };
};

const needsDrain = (stream: Drainable | undefined) =>
  !!stream && (stream.writableNeedDrain ?? stream._writableState?.needDrain ?? false);

/**
 * The stream the sheet's XML is written into. exceljs 4 has no back-pressure signal (row.commit() returns nothing;
 * exceljs issues #464 and #734): the sheet writes into its own buffer (StreamBuf), which writes into the zip entry's
 * stream without looking at write()'s answer. That entry stream is the first (only) pipe of the sheet's StreamBuf;
 * from there on (deflate, zip, our output, the HTTP response) every step is a pipe that honours back-pressure.
 */
function sheetSink(sheet: ExcelJS.Worksheet): Drainable | undefined {
  const stream = (sheet as unknown as { stream?: { pipes?: Drainable[] } }).stream;
  return stream?.pipes?.[0];
}

/**
 * Answers an .xlsx download. The first row is pulled before the Response is made, so a source that fails at once
 * (the API refused the first chunk) rejects this promise and goes through the loader's normal error path. After
 * that, rows are pulled only while the output is below its high-water mark; a source that throws midway destroys
 * the body stream with that error (the server logs it and the client sees an aborted download, never a hang), and
 * a client that goes away stops the pulling (the source's `finally` runs).
 */
export async function xlsxResponse<Row>(
  fileName: string,
  sheetName: string,
  columns: SheetColumn<Row>[],
  rows: RowSource<Row>,
  options: XlsxOptions = {},
): Promise<Response> {
  const iterator: AsyncIterator<Row> | Iterator<Row> =
    Symbol.asyncIterator in rows ? rows[Symbol.asyncIterator]() : rows[Symbol.iterator]();
  const first = await iterator.next();

  const output = new PassThrough();
  // Errors are reported to the response stream's reader; this listener keeps an error emitted after the reader has
  // gone (a cancelled download) from becoming an uncaught exception.
  output.on("error", () => undefined);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((column) => ({ header: column.header, width: column.width }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();

  const addRow = (row: Row) => {
    const line = sheet.addRow(columns.map((column) => column.value(row)));
    columns.forEach((column, index) => {
      const fill = column.fill?.(row);
      // A filled cell gets a style of its own; every plain cell shares one object, which exceljs looks up once
      // instead of rendering a fresh {} per cell to find its style id (half the time of a 100,000-row file).
      line.getCell(index + 1).style = fill
        ? { fill: { type: "pattern", pattern: "solid", fgColor: { argb: `FF${fill.replace("#", "").toUpperCase()}` } } }
        : PLAIN_STYLE;
    });
    line.commit();
  };

  /** Resolves when neither the sheet's sink nor the output is over its high-water mark, or the output is gone. */
  const roomToWrite = async () => {
    for (;;) {
      const congested = [output as Drainable, sheetSink(sheet)].find(needsDrain);
      if (!congested || output.destroyed) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          congested.off("drain", done);
          output.off("close", done);
          resolve();
        };
        congested.once("drain", done);
        output.once("close", done);
      });
    }
  };

  const write = async () => {
    let next = first;
    try {
      while (!next.done) {
        addRow(next.value);
        await roomToWrite();
        if (output.destroyed) return; // the client went away: stop pulling (finally closes the source)
        next = await iterator.next();
      }
    } finally {
      if (!next.done) await iterator.return?.();
    }
    sheet.commit();
    await workbook.commit();
  };
  void write().catch((error: unknown) => {
    options.onError?.(error);
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  });

  return new Response(createReadableStreamFromReadable(output), {
    headers: {
      "content-type": XLSX_TYPE,
      "content-disposition": `attachment; filename="${fileName}"`,
      "cache-control": "no-store",
    },
  });
}

/** DD-MM-YYYY of today in the business time zone, for file names. */
export function fileDate(now = new Date()) {
  return format(new TZDate(now, BUSINESS_TIME_ZONE), "dd-MM-yyyy");
}
