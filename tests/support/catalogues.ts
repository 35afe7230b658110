import type { Kysely } from "kysely";

import type { DB } from "../../api/db/schema.ts";
import { CATALOGUES, type CatalogueKind } from "../../api/domain/catalogues.ts";

/** A catalogue table's rows as stored (deleted ones included), for checking what a call wrote. */
export type CatalogueRow = {
  id: number;
  name: string;
  company_id: number;
  branch_id: number;
  deleted_at: Date | null;
  color?: string;
};

export function catalogueRows(db: Kysely<DB>, kind: CatalogueKind) {
  return db
    .selectFrom(CATALOGUES[kind].table as "risks")
    .selectAll()
    .orderBy("id")
    .execute() as Promise<CatalogueRow[]>;
}
