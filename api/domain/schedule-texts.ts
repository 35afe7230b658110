/**
 * Every scheduling text (spec 001 §2, §5, §8; 'ours' marked): the field and rule texts the browser needs too
 * (schedule-rules.ts, bundled with the forms) and the rest, which only the server says. Two objects so the forms'
 * script carries only the first (the JS budget of /agendamentos/cadastrar); server code reads this one.
 */
import { MAX_SUMMARY_DAYS, MAX_UNPAGED_DAYS } from "./limits.ts";
import { MAX_SAVE_ITEMS, SCHEDULE_FIELD_TEXTS } from "./schedule-rules.ts";

export const SCHEDULE_TEXTS = {
  ...SCHEDULE_FIELD_TEXTS,
  // §2.1
  listTab: "Listar agendamentos",
  registerTab: "Cadastrar agendamentos",
  registerBlocked:
    "Favor verificar se existe ao menos um usuário ASG e uma filial cadastrada antes de registrar um agendamento",
  confirmRemove: "Tem certeza que deseja remover?",
  // §2.2, §2.3
  newItem: "Criar novo item",
  markAll: "Marcar todos",
  unmarkAll: "Desmarcar todos",
  revisionPhotos: "As Revisões serão com foto única?",
  agendaActive: "Agenda ativada",
  agendaInactive: "Agenda desativada",
  // §2.5
  calendarEmpty: "Não existem agendamentos cadastrados ainda.",
  // §8
  created: "O agendamento foi cadastrado com sucesso e já pode ser visualizado no calendário",
  createFailed: "Ocorreu um erro ao cadastrar o agendamento, tente novamente",
  edited: "A agenda foi alterado com sucesso!",
  editFailed: "Ocorreu um erro ao editar o agenda, tente novamente",
  deleted: "Agendamento deletado com sucesso",
  deleteFailed: "Ocoreu um erro ao deletar o agendamento.",
  loadFailed: "Erro ao carregar dados, favor recarregue a página.",
  periodicityInvalid: "Tipo de periodicidade inválido",
  periodicityMixed: "Escolha apenas um tipo de periodicidade: dias da semana, dias do mês ou datas anuais",
  // ours: the API's answers (api/services/scheduling.ts)
  agendaNotFound: "Agenda não encontrada",
  bookingNotFound: "Agendamento não encontrado",
  environmentNotFound: "Ambiente não encontrado",
  collaboratorNotFound: "Colaborador não encontrado",
  collaboratorNotSchedulable: "O colaborador escolhido não pode ser agendado: escolha um ASG ativo da filial",
  environmentOtherBranch: "O ambiente escolhido não pertence à filial",
  branchFixed: "A filial de uma agenda não pode ser alterada",
  itemsTooMany: `Envie no máximo ${MAX_SAVE_ITEMS} itens por vez`,
  // spec 001 §5 'Reports' (the toast's text), and ours for an unpaged range over the limit
  dateRangeInvalid: "Intervalo de datas inválidos, favor verificar",
  dateRangeTooLong: `Sem paginação (limit), o intervalo de datas pode ter no máximo ${MAX_UNPAGED_DAYS} dias`,
  summaryRangeTooLong: `O resumo cobre no máximo ${MAX_SUMMARY_DAYS} dias`,
  searchFieldsInvalid: "Campos de busca inválidos",
  // ours: the register form without JS (issue 27 item 4)
  companyChanged: "A empresa foi trocada: escolha o colaborador e os itens desta empresa.",
  pairsRedrawn: "A quantidade de limpezas mudou: preencha os horários abaixo e cadastre o item.",
} as const;
