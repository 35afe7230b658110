import { can, type Permission, type UserForRole } from "../../api/domain/roles";

/**
 * The route table of spec 000 §2 and 001 §2 (who may open what) and the menu of spec 000 §6, as data.
 * Loaders call requireUser with the page's permission; the drawer draws the menu from the same table.
 */
export type PageAccess = "private" | Permission;

export const PAGES = {
  "/dashboard": { title: "Início", access: "private" },
  "/auditoria": { title: "Auditoria", access: "private" },
  "/historico-colaboradores": { title: "Colaboradores", access: "private" },
  "/relatorio-cliente": { title: "Relatório do cliente", access: "private" },
  "/historico-ambientes": { title: "Ambientes", access: "private" },
  "/historico-tarefas": { title: "Atividades", access: "private" },
  "/tarefas-incompletas": { title: "Tarefas Incompletas", access: "private" },
  "/imagens-tarefas": { title: "Imagens de tarefas", access: "private" },
  "/historico-agenda": { title: "Agenda", access: "private" },
  "/ocorrencias": { title: "Ocorrências", access: "viewIncidents" },
  "/ocorrencias/tipos": { title: "Tipos de ocorrência", access: "editRegisters" },
  "/inspecoes": { title: "Inspeções", access: "viewInspections" },
  "/inspecoes/nova": { title: "Nova inspeção", access: "inspect" },
  "/inspecoes/checklists": { title: "Checklists de inspeção", access: "editRegisters" },
  "/profile": { title: "Meu perfil", access: "private" },
  "/exportacoes": { title: "Minhas exportações", access: "private" },
  "/agendamentos": { title: "Agendamentos", access: "manageRegisters" },
  "/ambientes": { title: "Ambientes", access: "manageRegisters" },
  "/setores": { title: "Setores", access: "manageRegisters" },
  "/riscos": { title: "Riscos", access: "manageRegisters" },
  "/categorias": { title: "Categorias", access: "manageRegisters" },
  "/procedimentos": { title: "Procedimentos", access: "manageRegisters" },
  "/faq": { title: "Perguntas frequentes", access: "manageRegisters" },
  "/pre-cadastro-usuarios": { title: "Pré-cadastro de CPF's", access: "manageRegisters" },
  "/listagem-usuarios": { title: "Usuários", access: "manageRegisters" },
  "/filiais": { title: "Filiais", access: "manageBranches", needsMasterCpf: true },
  "/empresa-principal": { title: "Empresa matriz", access: "manageMainCompanies" },
} as const satisfies Record<string, { title: string; access: PageAccess; needsMasterCpf?: boolean }>;

export function isPagePath(path: string): path is PagePath {
  return Object.hasOwn(PAGES, path);
}

export type PagePath = keyof typeof PAGES;

export type MenuLink = { label: string; to: PagePath; deniedToast?: boolean };
export type MenuEntry = { label: string; to?: PagePath; children?: MenuLink[] };

export type MenuUser = UserForRole & { hasMasterCpf: boolean };

/** The drawer entries this user sees (spec 000 §6). */
export function menuFor(user: MenuUser): MenuEntry[] {
  const client = user.roleId === 7;
  const entries: MenuEntry[] = [];
  if (!client) entries.push({ label: "Início", to: "/dashboard" });
  // Issue 28: what visitors reported from the rooms' QR codes; the client reads its branch's.
  if (can(user, "viewIncidents")) entries.push({ label: "Ocorrências", to: "/ocorrencias" });
  // Issue 29: scored inspections; the client reads its branch's results.
  if (can(user, "viewInspections")) entries.push({ label: "Inspeções", to: "/inspecoes" });
  if (can(user, "manageRegisters")) {
    const registers: MenuLink[] = [];
    if (can(user, "manageMainCompanies")) registers.push({ label: "Empresa matriz", to: "/empresa-principal" });
    // Admins without a master CPF see 'Filiais' but get 'Permissão negada!' when they open it.
    if (can(user, "manageBranches"))
      registers.push({ label: "Filiais", to: "/filiais", deniedToast: !user.hasMasterCpf });
    registers.push(
      { label: "Procedimentos", to: "/procedimentos" },
      { label: "Riscos", to: "/riscos" },
      { label: "Setores", to: "/setores" },
      { label: "Categorias", to: "/categorias" },
      { label: "Ambientes", to: "/ambientes" },
      { label: "Agendamento", to: "/agendamentos" },
    );
    entries.push({ label: "Cadastros", children: registers });
    entries.push({
      label: "Usuários",
      children: [
        { label: "Pré-cadastro", to: "/pre-cadastro-usuarios" },
        { label: "Listagem", to: "/listagem-usuarios" },
      ],
    });
  }
  entries.push({
    label: "Relatórios",
    children: client
      ? [
          { label: "Atividades", to: "/historico-tarefas" },
          { label: "Imagens", to: "/imagens-tarefas" },
          { label: "Relatório do cliente", to: "/relatorio-cliente" },
        ]
      : [
          { label: "Colaboradores", to: "/historico-colaboradores" },
          { label: "Ambientes", to: "/historico-ambientes" },
          { label: "Tarefas incompletas", to: "/tarefas-incompletas" },
          { label: "Agenda", to: "/historico-agenda" },
          { label: "Atividades", to: "/historico-tarefas" },
          { label: "Imagens", to: "/imagens-tarefas" },
          { label: "Relatório do cliente", to: "/relatorio-cliente" },
        ],
  });
  entries.push({ label: "Auditoria", to: "/auditoria" });
  if (can(user, "viewFaq")) entries.push({ label: "FAQ", to: "/faq" });
  return entries;
}
