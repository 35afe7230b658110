import { csvLines, normaliseHeaderCell, trimErrors, type CsvTable } from "./csv-import.ts";
import { formatCpfText } from "./masks.ts";
import { CPF_TEXTS, PRE_REGISTER_LEVELS, preRegisteredCpfField, type PreRegisterLevel } from "./pre-registered-cpfs.ts";

/**
 * 'Cadastro em lote' of pre-registered CPFs (spec 000 §2, §5, §7 POST empresas/saveCSVFuncionarios): the template and
 * the rules of each row, with the catalogue import's file rules (csv-import.ts). Pure and browser-safe; the checks
 * that need the database (a CPF already pre-registered or already a user's) are api/services/pre-registered-cpfs.ts.
 */

/** The contract's file field of POST empresas/saveCSVFuncionarios; a refused file's row messages come under it. */
export const CPF_CSV_FIELD = "csv";

/** The template's header, as the file's first line is compared (no case, no accents): 'CPF;Nível' matches. */
export const CPF_CSV_HEADER = ["cpf", "nivel"] as const;

/** The template's sample rows: a CPF with its mask (Excel keeps it as text, leading zeros too) and a level name. */
export const CPF_CSV_EXAMPLES = [
  ["529.982.247-25", "ASG"],
  ["111.444.777-35", "Coordenador"],
] as const;

export type CpfCsvRow = { line: number; cpf: string; roleId: PreRegisterLevel };

const LEVEL_NAMES = PRE_REGISTER_LEVELS.map((level) => level.label);

/** 'Administrador, Coordenador, Auditor ou ASG'. */
const LEVEL_LIST = `${LEVEL_NAMES.slice(0, -1).join(", ")} ou ${LEVEL_NAMES[LEVEL_NAMES.length - 1]}`;

/** A level written by its name as the single form shows it, without case or accents ('asg', 'Coordenador'). */
export function levelOfName(name: string): PreRegisterLevel | undefined {
  return PRE_REGISTER_LEVELS.find((level) => normaliseHeaderCell(level.label) === normaliseHeaderCell(name))?.id;
}

/** Row messages the database checks give (ours: the single form's messages, named by line). */
export const cpfCsvLineError = (line: number, message: string) => `Linha ${line}: ${message}`;

/**
 * Checks a parsed CPF file against the template: the header 'cpf;nivel', then every row: the CPF by the single
 * form's rule and messages ('CPF do usuário é obrigatório', 'Favor inserir um CPF válido', 'Esse CPF não é
 * válido!'), the level by name and among those the caller may give (`allowed`), no CPF twice in the file. Blank
 * rows are skipped; one message per row, 'Linha N: ...' with the spreadsheet's line (the header is line 1).
 */
export function validateCpfCsv(
  table: CsvTable,
  allowed: readonly number[],
): { rows: CpfCsvRow[] } | { errors: string[] } {
  const checked = csvLines(table, CPF_CSV_HEADER);
  if ("errors" in checked) return checked;
  const errors: string[] = [];
  const rows: CpfCsvRow[] = [];
  const seen = new Map<string, number>();
  checked.lines.forEach(({ line, cells }) => {
    const fail = (message: string) => errors.push(cpfCsvLineError(line, message));
    const cpf = preRegisteredCpfField.safeParse(cells[0] ?? "");
    if (!cpf.success) return fail(cpf.error.issues[0]?.message ?? CPF_TEXTS.cpfLength);
    const levelName = (cells[1] ?? "").trim();
    if (!levelName) return fail(CPF_TEXTS.levelRequired);
    const roleId = levelOfName(levelName);
    if (roleId === undefined) return fail(`o nível de acesso '${levelName}' é inválido; use ${LEVEL_LIST}.`);
    if (!allowed.includes(roleId)) return fail(CPF_TEXTS.levelInvalid);
    const first = seen.get(cpf.data);
    if (first) return fail(`o CPF ${formatCpfText(cpf.data)} está repetido no arquivo (linha ${first}).`);
    seen.set(cpf.data, line);
    rows.push({ line, cpf: cpf.data, roleId });
  });
  if (errors.length) return { errors: trimErrors(errors) };
  return { rows };
}
