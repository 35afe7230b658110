/** /exportacoes/:id/arquivo: a finished export's file, for its requester only (docs/exports.md). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { exportFileLoader } from "~/exports/exports.server";

export const loader = (args: LoaderFunctionArgs) => exportFileLoader(args);
