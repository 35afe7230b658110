/**
 * /ambientes/:id/qrcode: the QR dialog as a page (without JS; ?tipo=imagem for the image formats), and 'Gerar novo QR
 * code' (?etapa=reemitir asks first; the form posts here).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { environmentQrAction, environmentQrLoader } from "~/environments/qrcode.server";

export const loader = (args: LoaderFunctionArgs) => environmentQrLoader(args);
export const action = (args: ActionFunctionArgs) => environmentQrAction(args);
export { default, ErrorBoundary, meta } from "~/environments/qrcode";
