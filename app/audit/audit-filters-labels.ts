import type { FilterName } from "./audit-state.server";

/** The dashboard's path, for the client modules (audit-state.server.ts holds the server's). */
export const AUDIT_PATH_CLIENT = "/auditoria";

/** The 'Filtros' dialog's fields in the spec's order (§2.13), each with its label. */
export const FILTER_LABELS: [FilterName, string][] = [
  ["filiais", "Empresa"],
  ["colaboradores", "Colaborador"],
  ["ambientes", "Ambiente"],
  ["categorias", "Categoria"],
  ["setores", "Setor"],
  ["procedimentos", "Procedimento"],
];
