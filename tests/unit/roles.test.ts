import { describe, expect, test } from "vitest";

import {
  can,
  isBlockedOnWeb,
  isBranchLevel,
  legacyRoleName,
  PERMISSIONS,
  roleName,
  type Permission,
} from "../../api/domain/roles.ts";

const user = (roleId: number | null, coordenador: number | null = null) => ({ roleId, coordenador });

describe("roleName", () => {
  test.each([
    [1, "Administrador (P)"],
    [2, "Administrador"],
    [3, "Coordenador"],
    [4, "Auditor"],
    [5, "ASG"],
    [7, "Cliente"],
    [null, "Sem nível de acesso"],
    [6, "Sem nível de acesso"],
    [0, "Sem nível de acesso"],
  ])("roleId %s is %s", (roleId, name) => {
    expect(roleName(user(roleId))).toBe(name);
  });

  test("the users list names former roles by the coordenador flag", () => {
    expect(legacyRoleName(user(null, 1))).toBe("Coordenador Antigo");
    expect(legacyRoleName(user(null, 0))).toBe("ASG Antigo");
    expect(legacyRoleName(user(null, null))).toBe("ASG Antigo");
    expect(legacyRoleName(user(3, 1))).toBe("Coordenador");
  });
});

describe("can (spec 000 §6)", () => {
  const roles = [1, 2, 3, 4, 5, 7, null] as const;
  const allowed = (permission: Permission) => roles.filter((roleId) => can(user(roleId), permission));

  test("registers (catalogues, environments, bookings, CPFs, users): roles 1, 2, 3 or none", () => {
    expect(allowed("manageRegisters")).toEqual([1, 2, 3, null]);
  });

  test("branches: roles 1 and 2; main companies: role 1; FAQ: roles 1 to 3", () => {
    expect(allowed("manageBranches")).toEqual([1, 2]);
    expect(allowed("manageMainCompanies")).toEqual([1]);
    expect(allowed("viewFaq")).toEqual([1, 2, 3]);
  });

  test("reports: everyone signed in", () => {
    expect(allowed("viewReports")).toEqual([...roles]);
  });

  test("an unknown role counts as no role", () => {
    expect(can(user(6), "manageRegisters")).toBe(true);
    expect(can(user(6), "manageBranches")).toBe(false);
    expect(can(user(6), "viewFaq")).toBe(false);
  });

  test("field staff have an ASG's permissions, whatever their role column says (issue 22 item 4)", () => {
    for (const permission of Object.keys(PERMISSIONS) as Permission[]) {
      expect(can(user(null, 0), permission), permission).toBe(can(user(5), permission));
      expect(can(user(3, 0), permission), permission).toBe(can(user(5), permission));
    }
    expect(can(user(null, 0), "manageRegisters")).toBe(false);
    expect(can(user(null, 1), "manageRegisters")).toBe(true);
    expect(can(user(null), "manageRegisters")).toBe(true);
  });

  test("every permission is in the table", () => {
    for (const permission of Object.keys(PERMISSIONS) as Permission[]) {
      expect(typeof can(user(1), permission)).toBe("boolean");
    }
  });
});

describe("isBlockedOnWeb and isBranchLevel", () => {
  test("web sign-in is refused for ASGs and for coordenador 0", () => {
    expect(isBlockedOnWeb(user(5))).toBe(true);
    expect(isBlockedOnWeb(user(5, 1))).toBe(true);
    expect(isBlockedOnWeb(user(3, 0))).toBe(true);
    expect(isBlockedOnWeb(user(null, 0))).toBe(true);
    for (const roleId of [1, 2, 3, 4, 7, null]) {
      expect(isBlockedOnWeb(user(roleId)), String(roleId)).toBe(false);
      expect(isBlockedOnWeb(user(roleId, 1)), String(roleId)).toBe(false);
    }
  });

  test("branch-level users are roleId 3 or none", () => {
    expect([1, 2, 3, 4, 5, 7, null].filter((roleId) => isBranchLevel(user(roleId)))).toEqual([3, null]);
  });
});
