import { sql, type RawBuilder } from "kysely";

import { foldSearch } from "../../lib/list-query.ts";

/** Where the rooms' search looks (§2.15 'Environment dashboard'): Ambiente (default), Categoria, Setor, Andar. */
export const ENVIRONMENT_SEARCH_FIELDS = ["ambiente", "categoria", "setor", "andar"] as const;
export type EnvironmentSearchField = (typeof ENVIRONMENT_SEARCH_FIELDS)[number];

/**
 * The rooms' search as a condition on a room alias (`e`): null without a term. One rule for the cards and for the
 * export rows, so an export holds the rooms the page found.
 */
export function environmentSearch(q: string | undefined, campos: readonly EnvironmentSearchField[] | undefined) {
  const term = q?.trim() ?? "";
  if (term === "") return null;
  const folded = foldSearch(term);
  const fields = campos?.length ? campos : (["ambiente"] as const);
  return (e: RawBuilder<unknown>) => {
    const matches = fields.map((field) => {
      switch (field) {
        case "ambiente":
          return sql`${e}.name_folded like ${folded}`;
        case "andar":
          return sql`${e}.andar_folded like ${folded}`;
        case "categoria":
          return sql`exists (select 1 from categories c where c.id = ${e}.category_id and c.name_folded like ${folded})`;
        case "setor":
          return sql`exists (select 1 from sectors s where s.id = ${e}.sector_id and s.name_folded like ${folded})`;
      }
    });
    return sql<boolean>`(${sql.join(matches, sql` or `)})`;
  };
}
