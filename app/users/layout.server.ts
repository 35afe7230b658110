import { USER_TEXTS as T } from "../../api/domain/users";

import { requireUsers, type UserArgs } from "./users.server";

/** The frame of /listagem-usuarios: title, help text, the tabs (register only for users with a main company). */
export async function userLayoutLoader(args: UserArgs) {
  const { canRegister } = await requireUsers(args);
  return { canRegister, help: T.help };
}
