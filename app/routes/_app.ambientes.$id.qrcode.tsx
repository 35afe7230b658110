/** /ambientes/:id/qrcode: the QR dialog as a page (without JS; ?tipo=imagem for the image formats). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { environmentQrLoader } from "~/environments/qrcode.server";

export const loader = (args: LoaderFunctionArgs) => environmentQrLoader(args);
export { default, ErrorBoundary, meta } from "~/environments/qrcode";
