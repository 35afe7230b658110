import { data, redirect } from "@remix-run/node";
import ExcelJS from "exceljs";

import {
  IMPORT_COLUMNS,
  IMPORT_INSTRUCTIONS,
  IMPORT_TEXTS,
  importedMessage,
  LIST_SEPARATOR,
  type ImportColumnKey,
} from "../../api/domain/environment-import";
import { INT32_MAX } from "../../api/domain/environments";

import { downloadHeaders, XLSX_TYPE } from "~/lib/downloads.server";
import { invariantResponse } from "~/lib/invariant";
import { loadActiveBranches } from "~/models/branches.server";
import { importEnvironmentsFile } from "~/models/environment-import.server";
import { scopeQuery, startingBranchId } from "~/models/scope.server";
import { signOutOnUnauthorized } from "~/session.server";
import { redirectWithToast, type ToastInput } from "~/toast.server";

import { requireEnvironments, type EnvironmentArgs } from "./environment.server";
import { loadFormOptions, type FormOptions } from "./form.server";

/**
 * /ambientes/importar and /ambientes/modelo.xlsx: the spreadsheet importer of environments (issue 10;
 * docs/environments.md 'Importing environments'). The page posts the file to its own action (multipart, so it works
 * without JS), which forwards it to POST /api/environments/import: all rows or none.
 */

export const TEMPLATE_FILE = "modelo-ambientes.xlsx";

const branchIdOf = (value: FormDataEntryValue | string | null) => {
  const id = typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : 0;
  return id >= 1 && id <= INT32_MAX ? id : null;
};

/** The page: the active branches to import into, starting on ?empresa=, the user's own or the main company's first. */
export async function environmentImportLoader(args: EnvironmentArgs) {
  const { api, canEdit } = await requireEnvironments(args);
  if (!canEdit) throw redirect("/ambientes");
  const branches = await loadActiveBranches(api);
  if (!branches.length) throw redirect("/ambientes");
  const asked = branchIdOf(new URL(args.request.url).searchParams.get("empresa"));
  return { branches, branchId: startingBranchId(branches, scopeQuery(api.auth), asked) };
}

/** What the page shows after a refused upload: the toast, every row error, and the branch chosen (kept selected). */
export type ImportActionData = { toast: ToastInput; errors: string[]; branchId: string; fileName: string };

/**
 * 'Importar': the file into the chosen branch. Success goes to the list with 'N ambiente(s) importado(s) com
 * sucesso'; a refusal shows the page again with every error the API named (nothing was written).
 */
export async function environmentImportAction(args: EnvironmentArgs) {
  const { api, canEdit } = await requireEnvironments(args);
  invariantResponse(canEdit, "Permissão negada!", { status: 403 });
  const form = await args.request.formData();
  const branchId = String(form.get("companyId") ?? "");
  const file = form.get("arquivo");
  const refused = (errors: string[], status: number, message = errors[0]) => {
    const description = errors.length === 1 ? errors[0] : message;
    const toast: ToastInput = { type: "error", title: IMPORT_TEXTS.failedTitle, description };
    const fileName = file instanceof File ? file.name : "";
    return data<ImportActionData>({ toast, errors, branchId, fileName }, { status });
  };
  if (!(file instanceof File) || file.size === 0) return refused([IMPORT_TEXTS.fileRequired], 400);

  const result = await importEnvironmentsFile(api, branchId, file);
  if (result.ok) {
    return redirectWithToast(args.context, "/ambientes", {
      type: "success",
      title: importedMessage(result.data.created),
    });
  }
  await signOutOnUnauthorized(args.request, args.context, result.status);
  const errors = result.fieldErrors?.file ?? result.fieldErrors?.companyId ?? [result.message];
  return refused(errors, result.status, result.message);
}

// ---------------------------------------------------------------------------------------------------------------
// The template

const EXAMPLE_NAME = "Banheiro de exemplo";
const GENERIC_EXAMPLE = [
  "Banheiro",
  "Recepção",
  "Térreo",
  "Biológico; Químico",
  "Limpar piso; Recolher lixo",
  "Repor papel toalha",
];
const CATALOGUE_SHEET = "Cadastros da filial";
const COLUMN_WIDTHS: Record<ImportColumnKey, number> = {
  name: 32,
  categoria: 20,
  setor: 20,
  andar: 14,
  riscos: 30,
  obrigatorios: 40,
  opcionais: 40,
};

type RangeValidations = { dataValidations: { add(range: string, rule: ExcelJS.DataValidation): void } };

/** The example row: the branch's first category and sector, two risks, two mandatory and one optional procedure. */
function exampleRow(options: FormOptions | null) {
  if (!options) return [EXAMPLE_NAME, ...GENERIC_EXAMPLE];
  const names = (items: { name: string }[], from: number, count: number) =>
    items
      .slice(from, from + count)
      .map((item) => item.name)
      .join(`${LIST_SEPARATOR} `);
  return [
    EXAMPLE_NAME,
    options.categorias[0]?.name ?? "",
    options.setores[0]?.name ?? "",
    "Térreo",
    names(options.riscos, 0, 2),
    names(options.procedimentos, 0, 2),
    names(options.procedimentos, 2, 1),
  ];
}

/**
 * The template workbook: 'Ambientes' (the header the import reads and one example row), 'Instruções', and, when a
 * branch was chosen, 'Cadastros da filial' with its category, sector, risk and procedure names (the Categoria and
 * Setor columns offer them as a drop-down list; any text is still accepted).
 */
export async function templateWorkbook(options: FormOptions | null) {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "Limpeza";
  const sheet = workbook.addWorksheet("Ambientes", { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = IMPORT_COLUMNS.map((column) => ({ header: column.header, width: COLUMN_WIDTHS[column.key] }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.fill = { type: "pattern", pattern: "solid", fgColor: { argb: "FFE0F0F2" } };
  sheet.addRow(exampleRow(options));

  const instructions = workbook.addWorksheet("Instruções");
  instructions.getColumn(1).width = 120;
  IMPORT_INSTRUCTIONS.forEach((line, index) => {
    const row = instructions.addRow([line]);
    row.alignment = { wrapText: true, vertical: "top" };
    if (index === 0) row.font = { bold: true, size: 13 };
  });

  if (options) {
    const lists = [
      ["Categorias", options.categorias],
      ["Setores", options.setores],
      ["Riscos", options.riscos],
      ["Procedimentos", options.procedimentos],
    ] as const;
    const catalogue = workbook.addWorksheet(CATALOGUE_SHEET);
    catalogue.columns = lists.map(([title]) => ({ header: title, width: 32 }));
    catalogue.getRow(1).font = { bold: true };
    const longest = Math.max(...lists.map(([, items]) => items.length));
    for (let index = 0; index < longest; index++) {
      catalogue.addRow(lists.map(([, items]) => items[index]?.name ?? null));
    }
    // Suggestions only (no error): names are matched without case or accents, so other spellings are fine.
    const suggest = (column: string, source: string, count: number) => {
      if (!count) return;
      // exceljs 4 has worksheet.dataValidations (one rule for a whole range) but leaves it out of its types.
      (sheet as unknown as RangeValidations).dataValidations.add(`${column}2:${column}5001`, {
        type: "list",
        allowBlank: true,
        showErrorMessage: false,
        formulae: [`'${CATALOGUE_SHEET}'!$${source}$2:$${source}$${count + 1}`],
      });
    };
    suggest("B", "A", options.categorias.length);
    suggest("C", "B", options.setores.length);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** /ambientes/modelo.xlsx?empresa=: 'Baixar modelo', with the branch's names when one is given (404 outside scope). */
export async function environmentTemplateLoader(args: EnvironmentArgs) {
  const { api } = await requireEnvironments(args);
  const branchId = branchIdOf(new URL(args.request.url).searchParams.get("empresa"));
  const options = branchId === null ? null : (await loadFormOptions(api, branchId)).options;
  const bytes = await templateWorkbook(options);
  return new Response(bytes, { headers: downloadHeaders(XLSX_TYPE, TEMPLATE_FILE, bytes.length) });
}
