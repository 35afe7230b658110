/** What the collaborators report's page and loader share (browser-safe): the default order and 'Filtrar por'. */
export const COLLABORATORS_DEFAULT_SORT = "nome";

/** 'Filtrar por' of the collaborator report (spec 001 §2.15): Colaborador by default; the others are personal data. */
export const COLLABORATOR_FIELDS = [
  { key: "colaborador", label: "Colaborador" },
  { key: "cpf", label: "CPF" },
  { key: "email", label: "E-mail" },
  { key: "telefone", label: "Telefone" },
] as const;

/** The columns the column-filter dialog may hide (§2.9): every one but the collaborator's name; all by default. */
export const COLLABORATOR_COLUMNS = [
  { key: "filial", label: "Filial" },
  { key: "cpf", label: "CPF" },
  { key: "email", label: "E-mail" },
  { key: "telefone", label: "Telefone" },
  { key: "agendamentos", label: "Agendamentos" },
  { key: "completos", label: "Completos" },
  { key: "incompletos", label: "Incompletos" },
  { key: "naoRealizados", label: "Não realizados" },
] as const;
