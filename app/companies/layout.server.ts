import { requireCompanies, type CompanyArgs } from "./company.server";

/** The frame of /empresa-principal: title, help text and the 'Cadastrar empresa' tab for roleId 1. */
export async function companyLayoutLoader(args: CompanyArgs) {
  const { canEdit } = await requireCompanies(args);
  return { canEdit };
}
