import { z } from "@hono/zod-openapi";
import { sql, type RawBuilder } from "kysely";

/**
 * Query parameters every paged list accepts (the web app keeps them in the page URL):
 * q (case- and accent-insensitive search), sort + dir, page (from 1) and size (20, 40, 80, 160; 0 = all).
 */
export const PAGE_SIZES = [20, 40, 80, 160, 0] as const;

export const ListQuery = z.object({
  q: z.string().max(200).optional(),
  sort: z.string().max(40).optional(),
  dir: z.enum(["asc", "desc"]).optional(),
  page: z.coerce.number().int().min(1).optional(),
  size: z.coerce
    .number()
    .int()
    .refine((value) => (PAGE_SIZES as readonly number[]).includes(value), "Tamanho de página inválido")
    .optional(),
});
export type ListQuery = z.infer<typeof ListQuery>;

export function isPaged(query: ListQuery) {
  return (
    query.q !== undefined ||
    query.sort !== undefined ||
    query.dir !== undefined ||
    query.page !== undefined ||
    query.size !== undefined
  );
}

export function pageOf(query: ListQuery) {
  const size = query.size ?? 20;
  const page = query.page ?? 1;
  return { size, page, limit: size === 0 ? null : size, offset: size === 0 ? 0 : (page - 1) * size };
}

const ACCENTED = "áàâãäéèêëíìîïóòôõöúùûüçñ";
const PLAIN = "aaaaaeeeeiiiiooooouuuucn";

/**
 * Lower-case and without accents, so 'Área' sorts with 'area' and before 'Banheiro' (pt-BR order on any server).
 * The two strings are inlined as literals so the expression matches the sort indexes of migration 002.
 */
export function foldText(expression: RawBuilder<unknown> | string) {
  const column = typeof expression === "string" ? sql.ref(expression) : expression;
  return sql<string>`translate(lower(${column}), ${sql.lit(ACCENTED)}, ${sql.lit(PLAIN)})`;
}

export function foldSearch(term: string) {
  const folded = term
    .trim()
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");
  return `%${folded.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
