/** The fields the board's search may look in ('Filtrar por', spec 001 §2.15 'Agenda dashboard'); Colaborador first. */
export const SEARCH_FIELDS = { colaborador: "Colaborador", filial: "Filial", ambiente: "Ambiente" } as const;
export type SearchField = keyof typeof SEARCH_FIELDS;
