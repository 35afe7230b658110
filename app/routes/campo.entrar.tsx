/** /campo/entrar: the field sign-in (docs/field-app.md 'Who, and where'). */
import type { MetaFunction } from "@remix-run/node";

import { fieldSignInAction, fieldSignInLoader } from "~/field/sign-in.server";

export const loader = fieldSignInLoader;
export const action = fieldSignInAction;
export const meta: MetaFunction = () => [{ title: "Entrar | Limpeza" }];
export { default } from "~/field/sign-in";
