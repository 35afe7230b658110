/**
 * Roles and what each may do (spec 000 §6), as data. The API checks these with requirePermission, the web app
 * reads the same table through can() to decide what to draw. Nothing else decides access.
 */
export type RoleId = 1 | 2 | 3 | 4 | 5 | 7 | null;

export const ROLE_NAMES: Record<string, string> = {
  1: "Administrador (P)",
  2: "Administrador",
  3: "Coordenador",
  4: "Auditor",
  5: "ASG",
  7: "Cliente",
};

export type UserForRole = { roleId: number | null; coordenador: number | null };

export function roleName(user: UserForRole) {
  return ROLE_NAMES[String(user.roleId)] ?? "Sem nível de acesso";
}

/** The level shown on the users list for people without a role (spec 000 §6). */
export function legacyRoleName(user: UserForRole) {
  if (user.roleId !== null && ROLE_NAMES[String(user.roleId)]) return ROLE_NAMES[String(user.roleId)];
  return user.coordenador === 1 ? "Coordenador Antigo" : "ASG Antigo";
}

/** Branch-level users (roleId 3 or none) only ever see their own branch. */
export function isBranchLevel(user: UserForRole) {
  return user.roleId === 3 || user.roleId === null;
}

/** Web sign-in is refused for ASGs and for users marked coordenador 0 (spec 000 §6). */
export function isBlockedOnWeb(user: UserForRole) {
  return user.coordenador === 0 || user.roleId === 5;
}

export const PERMISSIONS = {
  /** catalogues, environments, bookings, FAQ, pre-registered CPFs and the users list */
  manageRegisters: [1, 2, 3, null],
  /** create, edit, remove and duplicate catalogue items: main-company staff only, never branch-level users */
  editRegisters: [1, 2],
  manageBranches: [1, 2],
  manageMainCompanies: [1],
  viewFaq: [1, 2, 3],
  viewReports: [1, 2, 3, 4, 5, 7, null],
  /** the incidents of visitors' reports (issue 28): read by the office and the client, handled by managers */
  viewIncidents: [1, 2, 3, 4, 7, null],
  handleIncidents: [1, 2, 3, null],
  /** scored inspections (issue 29): the office inspects (the Auditor too); the client reads its branch's results */
  inspect: [1, 2, 3, 4, null],
  viewInspections: [1, 2, 3, 4, 7, null],
} as const satisfies Record<string, readonly RoleId[]>;

export type Permission = keyof typeof PERMISSIONS;

/**
 * Field staff (`isBlockedOnWeb`: ASGs, and old-system users without a role marked coordenador 0) have an ASG's
 * permissions, whatever their role column says: an 'ASG Antigo' is no branch manager (issue 22 item 4).
 */
export function can(user: UserForRole, permission: Permission) {
  const roles = PERMISSIONS[permission] as readonly (number | null)[];
  if (isBlockedOnWeb(user)) return roles.includes(5);
  const roleId = user.roleId !== null && ROLE_NAMES[String(user.roleId)] ? user.roleId : null;
  return roles.includes(roleId);
}

/**
 * Who may edit whom (spec 000 §6 'Edit button on a user row is disabled …'), as one table read by the API
 * (PUT /users) and the users list (the edit button). Keyed by the editor's level; the value lists the target levels
 * the editor may NOT edit. Levels: the roleId, or null for branch-level users without a role.
 * - role 3 / no role: not Administrador (P), Administrador, Auditor;
 * - role 2: not Administrador (P);
 * - role 1 (and anyone else who may manage users): not another Administrador (P).
 * Editing one's own record is always allowed; roles that do not manage registers (4, 5, 7) edit only themselves.
 */
export const USER_EDIT_FORBIDDEN_TARGETS: Record<"1" | "2" | "3" | "none", readonly RoleId[]> = {
  1: [1],
  2: [1],
  3: [1, 2, 4],
  none: [1, 2, 4],
};

export type UserEditCheck = UserForRole & { id: number };

/** Whether `editor` may change `target` (name, phone, active flag, password) under spec 000 §6. */
export function canEditUser(editor: UserEditCheck, target: UserEditCheck) {
  if (editor.id === target.id) return true;
  if (!can(editor, "manageRegisters")) return false;
  const editorLevel = editor.roleId !== null && ROLE_NAMES[String(editor.roleId)] ? editor.roleId : null;
  const key = editorLevel === null ? "none" : (String(editorLevel) as "1" | "2" | "3");
  const forbidden = USER_EDIT_FORBIDDEN_TARGETS[key] as readonly (number | null)[];
  return !forbidden.includes(target.roleId);
}
