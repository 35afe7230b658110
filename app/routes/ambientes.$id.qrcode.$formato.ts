/** /ambientes/:id/qrcode/{pdf,png,jpeg,svg}: one environment's QR code, QRCODE-{ID}.{format}. */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { environmentQrDownloadLoader } from "~/environments/downloads.server";

export const loader = (args: LoaderFunctionArgs) => environmentQrDownloadLoader(args);
