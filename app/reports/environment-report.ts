/** What the environments report's page and loader share (browser-safe): the default order and 'Filtrar por'. */
export const ENVIRONMENTS_DEFAULT_SORT = "nome";

/** 'Filtrar por' of the environments report (spec 001 §2.15 'Environment dashboard'): Ambiente by default. */
export const ENVIRONMENT_FIELDS = [
  { key: "ambiente", label: "Ambiente" },
  { key: "categoria", label: "Categoria" },
  { key: "setor", label: "Setor" },
  { key: "andar", label: "Andar" },
] as const;

/** A room card's 'Agendamentos': the slots and how many were completed, the noun agreeing ('2 (1 completo)'). */
export const bookingsWithCompleted = (agendamentos: number, completos: number) =>
  `${agendamentos} (${completos} ${completos === 1 ? "completo" : "completos"})`;
