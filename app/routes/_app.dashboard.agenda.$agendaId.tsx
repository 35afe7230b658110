/** /dashboard/agenda/:agendaId?dia=: a card's schedule detail and history (spec 001 §2.7, §2.8), over the board. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { detailLoader } from "~/dashboard/detail.server";

export const loader = (args: LoaderFunctionArgs) => detailLoader(args);
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "Agendamento"} | Limpeza` }];
export { default } from "~/dashboard/detail";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
