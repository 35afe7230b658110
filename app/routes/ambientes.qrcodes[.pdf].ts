/** POST /ambientes/qrcodes.pdf: the ticked rows' QR sheets in one PDF, QRCODES-YYYYMMDD-HHmm.pdf. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { environmentQrBulkAction, environmentQrBulkLoader } from "~/environments/downloads.server";

export const loader = (args: LoaderFunctionArgs) => environmentQrBulkLoader(args);
export const action = (args: ActionFunctionArgs) => environmentQrBulkAction(args);
