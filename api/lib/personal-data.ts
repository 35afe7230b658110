import { can, type UserForRole } from "../domain/roles.ts";

import { ApiError } from "./errors.ts";

/**
 * A person's CPF, e-mail, phone and birth date are sent only to callers who may read users (spec 000 §6: the users
 * list's roles, `manageRegisters`), never to the Auditor, the client or field staff (issue 22 item 4).
 */
export const mayReadPersonalData = (user: UserForRole) => can(user, "manageRegisters");

/**
 * Where a search may look for this caller: the personal fields only for those who may read them (a search that finds
 * a value would tell it a letter at a time), else 400 `message`; none chosen is every field they may search.
 */
export function searchFieldsFor<F extends string>(
  user: UserForRole,
  chosen: readonly F[] | undefined,
  fields: { all: readonly F[]; personal: readonly F[]; message: string },
): readonly F[] | undefined {
  if (mayReadPersonalData(user)) return chosen;
  if (chosen?.some((field) => fields.personal.includes(field)))
    throw new ApiError(400, fields.message, { campos: [fields.message] });
  return chosen?.length ? chosen : fields.all.filter((field) => !fields.personal.includes(field));
}
