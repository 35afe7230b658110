/**
 * The incident loop's rules and texts (issue 28, docs/incidents.md): what a visitor may send from a room's public page
 * and what becomes of it. Shared by the API (which enforces them) and the web app (which shows the same words).
 */

export const INCIDENT_STATUSES = ["aberta", "em_atendimento", "resolvida", "descartada"] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

export const INCIDENT_STATUS_LABELS: Record<IncidentStatus, string> = {
  aberta: "Aberta",
  em_atendimento: "Em atendimento",
  resolvida: "Resolvida",
  descartada: "Descartada",
};

/** The proof resolving an incident of a kind needs. */
export const PROOF_LABELS = { foto: "Foto", nota: "Nota", ambos: "Foto e nota" } as const;

/** The five faces of 'Avaliar limpeza', 1 (worst) to 5 (best). */
export const RATINGS = [
  { value: 1, label: "Muito ruim" },
  { value: 2, label: "Ruim" },
  { value: 3, label: "Regular" },
  { value: 4, label: "Boa" },
  { value: 5, label: "Muito boa" },
] as const;

export const VISITOR_LIMITS = {
  /** A report's text. */
  descriptionMax: 500,
  /** A report's photo, as sent (it is re-encoded smaller). */
  photoMaxBytes: 5 * 1024 * 1024,
  /** A form posted sooner than this after the page was drawn is a robot's: dropped quietly. */
  minFormAgeMs: 2_000,
  /** …and one posted after this: a page kept open (or a replayed token). */
  maxFormAgeMs: 24 * 60 * 60 * 1000,
  /** Identical reports of one room within this time are one incident with a count. */
  mergeWindowMinutes: 10,
  /** The window of the limits below. */
  windowSeconds: 10 * 60,
  /** Per address and window: reports, ratings. */
  reportsPerAddress: 5,
  ratingsPerAddress: 20,
  /** Per room and window, whoever sends them. */
  reportsPerRoom: 30,
  ratingsPerRoom: 120,
} as const;

export const INCIDENT_TEXTS = {
  rateTitle: "Avaliar limpeza",
  rateQuestion: "Como está a limpeza deste ambiente?",
  reportTitle: "Relatar problema",
  reportKind: "O que aconteceu?",
  reportDescription: "Descreva (opcional)",
  reportPhoto: "Foto (opcional, até 5 MB)",
  reportSend: "Enviar relato",
  noPersonalData: "Não pedimos seu nome nem seus dados.",
  thanksRating: "Obrigado pela avaliação!",
  thanksRatingNext: "Sua nota ajuda a equipe de limpeza a manter este ambiente em ordem.",
  thanksReport: "Obrigado! Seu relato foi enviado.",
  thanksReportNext:
    "A equipe responsável por este ambiente foi avisada e vai atender o problema. O andamento aparece na página do ambiente.",
  backToRoom: "Voltar ao ambiente",
  kindRequired: "Escolha o que aconteceu.",
  ratingRequired: "Escolha uma nota de 1 a 5.",
  descriptionTooLong: "A descrição pode ter no máximo 500 caracteres.",
  photoTooBig: "A foto pode ter no máximo 5 MB.",
  photoType: "A foto deve ser uma imagem JPEG, PNG, GIF ou WebP.",
  tooManyTitle: "Muitos envios",
  tooMany: "Recebemos muitos envios deste ambiente ou desta rede agora. Tente novamente em alguns minutos.",
} as const;

export const INCIDENT_HANDLING_TEXTS = {
  title: "Ocorrências",
  titleTooltip:
    "Problemas relatados por quem visita os ambientes (pelo QR code). Cada ocorrência tem um prazo e um histórico; " +
    "resolva com a prova que o tipo pede ou descarte com um motivo.",
  empty: "Nenhuma ocorrência no período.",
  notFound: "Ocorrência não encontrada",
  closed: "Esta ocorrência já foi encerrada.",
  alreadyInProgress: "Esta ocorrência já está em atendimento.",
  reasonRequired: "Informe o motivo do descarte.",
  reasonTooLong: "O motivo pode ter no máximo 500 caracteres.",
  deadlinePast: "O novo prazo deve ser depois de agora.",
  deadlineInvalid: "Informe a data e a hora do novo prazo.",
  ownerNotFound: "Responsável não encontrado",
  readOnly: "Você pode consultar as ocorrências, mas não alterá-las.",
  take: "Iniciar atendimento",
  discard: "Descartar",
  changeDeadline: "Alterar prazo",
  assign: "Atribuir",
  branchCoordinators: "Coordenadores da filial",
  overdue: "Atrasada",
  timeline: "Histórico",
  saved: "Ocorrência atualizada.",
} as const;

export const INCIDENT_RESOLUTION_TEXTS = {
  corrective: "Criar limpeza corretiva",
  correctiveCreated: "Limpeza corretiva agendada.",
  collaboratorRequired: "Escolha um colaborador (ASG) da filial do ambiente.",
  collaboratorNotFound: "Colaborador não encontrado",
  startInvalid: "Informe o horário de início (HH:mm).",
  endInvalid: "O horário de término deve ser depois do início.",
  photoRequired: "Envie uma foto do ambiente resolvido.",
  noteRequired: "Escreva uma nota do que foi feito.",
  noteTooLong: "A nota pode ter no máximo 500 caracteres.",
  photoTooBig: "A foto pode ter no máximo 5 MB.",
} as const;

export const INCIDENT_KIND_LIMITS = { perCompany: 20, nameMax: 60, minMinutes: 15, maxMinutes: 43_200 } as const;

export const INCIDENT_KIND_TEXTS = {
  title: "Tipos de ocorrência",
  titleTooltip:
    "O que o visitante pode relatar pelo QR code. O prazo conta a partir do relato; a prova é o que o ASG envia " +
    "para resolver. Uma mudança vale para as próximas ocorrências.",
  notFound: "Tipo de ocorrência não encontrado",
  nameRequired: "Informe o nome do tipo.",
  nameTooLong: "O nome pode ter no máximo 60 caracteres.",
  nameTaken: "Já existe um tipo com este nome.",
  deadlineRange: "O prazo deve ser de 15 minutos a 30 dias.",
  tooMany: "A empresa pode ter no máximo 20 tipos de ocorrência.",
  lastActive: "Mantenha ao menos um tipo ativo: o visitante precisa ter o que escolher.",
  saved: "Tipo de ocorrência salvo.",
  created: "Tipo de ocorrência cadastrado.",
} as const;

/** The timeline's words for each event. */
export const INCIDENT_EVENT_LABELS = {
  aberta: "Relatada",
  relato_repetido: "Relatada de novo",
  atribuida: "Responsável alterado",
  prazo_alterado: "Prazo alterado",
  corretiva: "Limpeza corretiva agendada",
  em_atendimento: "Atendimento iniciado",
  resolvida: "Resolvida",
  descartada: "Descartada",
  alerta_enviado: "Alerta enviado",
} as const;

/** What the room page says of its latest unresolved incident: the time and the state, no details. */
export function roomIncidentText(status: "aberta" | "em_atendimento", time: string) {
  return `Problema relatado às ${time} — ${status === "aberta" ? "aguardando atendimento" : "em atendimento"}`;
}

/** The text two reports are compared by for the merge rule: trimmed, spaces collapsed, case ignored. */
export function reportFingerprint(description: string) {
  return description.trim().replace(/\s+/g, " ").toLowerCase();
}

/** Whether a form drawn at `issuedAt` and posted at `now` is a person's (not too fast, not a day old). */
export function formAgeAccepted(issuedAt: number, now: number) {
  const age = now - issuedAt;
  return age >= VISITOR_LIMITS.minFormAgeMs && age <= VISITOR_LIMITS.maxFormAgeMs;
}

/** The facts an alert e-mail gives. */
export type IncidentAlertFacts = {
  id: number;
  tipo: string;
  ambiente: string;
  filial: string;
  descricao: string;
  relatadaEm: string;
  prazo: string;
  link: string;
};

/** The owners' e-mail when an incident opens ('aberta') and when its deadline passes unresolved ('atrasada'). */
export function incidentAlertMail(kind: "aberta" | "atrasada", facts: IncidentAlertFacts) {
  const where = `${facts.ambiente} (${facts.filial})`;
  const lines =
    kind === "aberta"
      ? [`Um visitante relatou "${facts.tipo}" no ambiente ${where} em ${facts.relatadaEm}.`, `Prazo: ${facts.prazo}.`]
      : [
          `O prazo da ocorrência "${facts.tipo}" no ambiente ${where} venceu em ${facts.prazo} e ela não foi resolvida.`,
          `Relatada em ${facts.relatadaEm}.`,
        ];
  if (facts.descricao) lines.push(`Descrição: ${facts.descricao}`);
  lines.push("", `Abra a ocorrência nº ${facts.id}: ${facts.link}`);
  return {
    subject:
      kind === "aberta"
        ? `Nova ocorrência: ${facts.tipo} — ${facts.ambiente}`
        : `Ocorrência atrasada: ${facts.tipo} — ${facts.ambiente}`,
    text: lines.join("\n"),
  };
}
