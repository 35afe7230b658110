/** /riscos/:id/editar: rename an item (and its colour, for risks). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { catalogueEditAction, catalogueEditLoader } from "~/catalogues/edit.server";

export const loader = (args: LoaderFunctionArgs) => catalogueEditLoader(args, "riscos");
export const action = (args: ActionFunctionArgs) => catalogueEditAction(args, "riscos");
export { default, ErrorBoundary, meta } from "~/catalogues/edit";
