/**
 * Scored inspections' rules and texts (issue 29, docs/inspections.md). Shared by the API, which enforces them, and the
 * web app, which shows the same words and the same formula.
 */

export const ANSWERS = ["conforme", "nao_conforme", "nao_se_aplica"] as const;
export type Answer = (typeof ANSWERS)[number];

export const ANSWER_LABELS: Record<Answer, string> = {
  conforme: "Conforme",
  nao_conforme: "Não conforme",
  nao_se_aplica: "Não se aplica",
};

export const INSPECTION_LIMITS = {
  /** Items of one checklist version. */
  itemsMax: 50,
  itemTextMax: 200,
  nameMax: 80,
  /** Checklists of one company (one per category at most). */
  checklistsPerCompany: 500,
  weightMin: 1,
  weightMax: 5,
  noteMax: 500,
  observationMax: 1000,
  /** Photos of one item, each at most the execution API's photo size; of one whole inspection. */
  photosPerItem: 3,
  photosPerInspection: 15,
  /** The pass mark a company starts with. */
  defaultPassMark: 85,
} as const;

export type ScoredAnswer = { peso: number; resposta: Answer };

/**
 * The score: Σ weights of the 'Conforme' items ÷ Σ weights of the applicable items ('Não se aplica' counts in neither),
 * in percent, rounded half up to one decimal. Integer arithmetic, so 84.95 is 85.0 whatever the floating point says.
 * null when no item applies: such an inspection has no score and is refused.
 */
export function inspectionScore(answers: readonly ScoredAnswer[]) {
  let conforme = 0;
  let aplicaveis = 0;
  for (const { peso, resposta } of answers) {
    if (resposta === "nao_se_aplica") continue;
    aplicaveis += peso;
    if (resposta === "conforme") conforme += peso;
  }
  if (aplicaveis === 0) return null;
  // Tenths of a percent, half up: floor((1000·c ÷ a) + ½) = floor((2000·c + a) ÷ 2a).
  const tenths = Math.floor((2000 * conforme + aplicaveis) / (2 * aplicaveis));
  return { conforme, aplicaveis, nota: tenths / 10 };
}

/** Passed when the score as shown (one decimal) reaches the mark: what the inspector reads is what decides. */
export const passes = (nota: number, notaMinima: number) => Math.round(nota * 10) >= Math.round(notaMinima * 10);

/** A percentage as the pages write it: '87,5%'. */
export const percent = (value: number) =>
  `${value.toLocaleString("pt-BR", { minimumFractionDigits: 1, maximumFractionDigits: 1 })}%`;

/** The formula in words, on the result page and in docs/inspections.md. */
export const SCORE_FORMULA =
  "Nota = soma dos pesos dos itens 'Conforme' ÷ soma dos pesos dos itens aplicáveis ('Conforme' e 'Não conforme') × 100, " +
  "com uma casa decimal (arredondada para cima a partir de 0,05). Itens 'Não se aplica' não entram na conta.";

export const INSPECTION_TEXTS = {
  title: "Inspeções",
  checklistsTitle: "Checklists de inspeção",
  newInspection: "Nova inspeção",
  inspect: "Inspecionar",
  reinspect: "Reinspecionar",
  notFound: "Inspeção não encontrada",
  checklistNotFound: "Checklist não encontrado",
  roomNotFound: "Ambiente não encontrado",
  noChecklist: "A categoria deste ambiente não tem checklist de inspeção.",
  nameRequired: "Informe o nome do checklist.",
  nameTooLong: "O nome pode ter no máximo 80 caracteres.",
  categoryRequired: "Escolha a categoria dos ambientes que este checklist inspeciona.",
  categoryTaken: "Esta categoria já tem um checklist.",
  itemsRequired: "Inclua ao menos um item no checklist.",
  itemsTooMany: "Um checklist pode ter no máximo 50 itens.",
  itemTextTooLong: "O texto de um item pode ter no máximo 200 caracteres.",
  weightInvalid: "O peso de um item vai de 1 a 5.",
  procedureInvalid: "Escolha um procedimento da mesma filial do checklist.",
  tooManyChecklists: "A empresa já tem o número máximo de checklists (500).",
  duplicateNoCategory: (category: string, branch: string) =>
    `A filial ${branch} não tem a categoria ${category}: cadastre-a antes de duplicar.`,
  duplicateSameBranch: "Escolha outra filial para duplicar o checklist.",
  answerRequired: "Marque cada item como Conforme, Não conforme ou Não se aplica.",
  nothingApplicable: "Marque ao menos um item como Conforme ou Não conforme: sem itens aplicáveis não há nota.",
  noteTooLong: "A observação de um item pode ter no máximo 500 caracteres.",
  observationTooLong: "A observação geral pode ter no máximo 1000 caracteres.",
  tooManyPhotos: "Cada item aceita no máximo 3 fotos.",
  tooManyPhotosInAll: "Uma inspeção aceita no máximo 15 fotos.",
  checklistChanged: "O checklist deste ambiente mudou enquanto a inspeção era feita: abra o formulário de novo.",
  reinspectionOtherRoom: "A reinspeção deve ser do mesmo ambiente da inspeção original.",
  passMarkInvalid: "A nota mínima vai de 0 a 100, com no máximo uma casa decimal.",
  failureOnly: "Só um item 'Não conforme' pode abrir uma ocorrência.",
  failureHasIncident: "Este item já abriu uma ocorrência.",
  kindRequired: "Escolha o tipo da ocorrência.",
  kindNotFound: "Tipo de ocorrência não encontrado",
  itemNotFound: "Item não encontrado nesta inspeção",
  procedureNotFound: "Procedimento não encontrado",
  correctiveNotAllowed: "Seu nível de acesso não permite criar limpezas corretivas.",
  readOnly: "Seu nível de acesso não permite inspecionar.",
  saved: "Checklist salvo",
  created: "Checklist cadastrado",
  duplicated: "Checklist duplicado",
  passMarkSaved: "Nota mínima salva",
  submitted: "Inspeção registrada",
  incidentOpened: "Ocorrência aberta",
  correctiveCreated: "Ocorrência aberta com limpeza corretiva",
  passed: "Aprovada",
  failed: "Reprovada",
} as const;
