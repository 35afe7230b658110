/** /riscos/duplicar?ids=: copy the ticked items to a branch (a page without JS; the list's dialog with it). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { catalogueDuplicateAction, catalogueDuplicateLoader } from "~/catalogues/duplicate.server";

export const loader = (args: LoaderFunctionArgs) => catalogueDuplicateLoader(args, "riscos");
export const action = (args: ActionFunctionArgs) => catalogueDuplicateAction(args, "riscos");
export { default, ErrorBoundary, meta } from "~/catalogues/duplicate";
