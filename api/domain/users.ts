import { birthDateField, cpfField, emailField, nameField, passwordField, phoneField } from "./fields.ts";
import { isBranchLevel, type UserForRole } from "./roles.ts";

/**
 * Users (listagem de usuários) and their other names, spec 000 §2 'Users', §3, §4, §5, §6, §8: the Portuguese texts,
 * the levels a caller may create or give, and the field rules, shared by the web forms and the API. Pure and
 * browser-safe (zod/mini only, as api/domain/fields.ts). Texts the spec does not give are marked 'ours' and listed in
 * docs/users.md.
 */
export const USER_TEXTS = {
  title: "Listagem de usuários",
  listTab: "Listar usuários",
  registerTab: "Cadastrar usuário",
  // ours
  help:
    "Nesta página você pode visualizar, cadastrar e editar os usuários da empresa, mudar o nível de acesso e " +
    "cadastrar os outros nomes pelos quais cada um é conhecido.",
  empty: "Não existem usuários cadastrados.",
  searchLabel: "Buscar usuário",
  editTitle: "Editar Usuário",
  infoTab: "Alterar informações",
  levelTab: "Alterar nível de acesso",
  namesTitle: "Nomes do Usuário",
  namesListTab: "Lista de Nomes",
  nameCreateTab: "Cadastrar Nome",
  nameEditTab: "Editar Nome",
  nameLabel: "Nome do Usuário",
  removeQuestion: "Tem certeza que deseja remover?",
  // §8 'CPFs, users, branches, companies'
  loadFailedTitle: "Erro",
  loadFailed: "Erro ao carregar dados, por favor atualize a página",
  editFailed: "Erro ao editar usuário!",
  editFailedFallback: "Ocorreu um erro, por favor tente novamente.",
  createFailed: "Erro ao cadastrar!",
  nameFailed: "Erro ao editar!",
  checkData: "Verifique os dados!",
  removeFailed: "Erro ao remover item!",
  edited: "O usuário foi alterado com sucesso.",
  created: "O usuário foi cadastrado com sucesso.",
  levelChanged: "O acesso do usuário foi alterado com sucesso.",
  nameSaved: "Nome foi alterado com sucesso.",
  nameRemoved: "Nome foi removido com sucesso.",
  // §4
  chooseLevel: "É necessário escolher um nível para o usuário!",
  // ours
  levelRequired: "Nível de acesso é obrigatório",
  levelInvalid: "Nível de acesso não permitido",
  branchRequired: "Filial é obrigatória",
  ownLevel: "Você não pode alterar o próprio nível de acesso",
  notFound: "Usuário não encontrado",
  nameNotFound: "Nome não encontrado",
  nameDuplicate: "Este nome já está cadastrado para o usuário",
  // ours: an e-mail or CPF already a user's in the same main company (also on sign-up and the profile)
  emailTaken: "E-mail já cadastrado",
  cpfTaken: "CPF já cadastrado",
  // ours (issue 22): the same held in another main company, as a user or a pre-registration. Neither the company nor
  // which of the two is told, so a tenant cannot probe another's staff (docs/users.md 'Duplicates in another company').
  emailUnavailable: "E-mail indisponível para cadastro. Informe outro e-mail.",
  cpfUnavailable: "CPF indisponível para cadastro. Se o número estiver correto, procure o suporte.",
  seatsFull: (max: number) =>
    `A empresa atingiu o número máximo de usuários ativos (${max}). Peça ao Administrador (P) para aumentar o limite.`,
} as const;

/**
 * The levels of the create form and the 'Alterar nível de acesso' tab, with the contract's call for each (spec 000
 * §7): a company-wide level takes the main company (companyId), a branch level a branch (filiaId / filialId). Client
 * (7) is the create form's 'client type'; the contract names no call for it, so `cliente` is ours.
 */
export const USER_LEVELS = [
  { id: 2, label: "Administrador", create: "adminLocal", transform: "transformToAdminLocal", branch: false },
  { id: 3, label: "Coordenador", create: "coordenador", transform: "transformToCoordenador", branch: true },
  { id: 4, label: "Auditor", create: "auditor", transform: "transformToAuditor", branch: false },
  { id: 5, label: "ASG", create: "asg", transform: "transformToASG", branch: true },
  { id: 7, label: "Cliente", create: "cliente", transform: null, branch: true },
] as const;
export type UserLevel = (typeof USER_LEVELS)[number];
export type UserLevelId = UserLevel["id"];

export const levelById = (id: number | null) => USER_LEVELS.find((level) => level.id === id);

/** Spec 000 §6 'Creating users': roleId 3 or none only Coordenador and ASG (own branch); others all, client included. */
export function createLevelsFor(user: UserForRole): readonly UserLevelId[] {
  return isBranchLevel(user) ? [3, 5] : [2, 3, 4, 5, 7];
}

/** Spec 000 §6 'Level choices on edit' (the form adds 'Sem nível', which changes nothing): 3/none two, others four. */
export function levelChoicesFor(user: UserForRole): readonly UserLevelId[] {
  return isBranchLevel(user) ? [3, 5] : [2, 3, 4, 5];
}

/** The fields of every create call (POST /empresas/{adminLocal,coordenador,auditor,asg,cliente}). */
export const userCreateFields = {
  nome: nameField(),
  email: emailField,
  cpf: cpfField,
  dataNascimento: birthDateField,
  telefone: phoneField,
  password: passwordField,
};

/** An other name of a user ('Nomes do Usuário'): 'Nome obrigatório', at most 120 characters. */
export const userNameField = nameField();
