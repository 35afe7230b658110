import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteLoaderData } from "@remix-run/react";

import { GeneralErrorBoundary } from "./components/error-boundary";
import { LoadingOverlay } from "./components/loading-overlay";
import { OfflineModal } from "./components/offline-modal";
import { Toaster } from "./components/toaster";
import { useLinkNavigation } from "./lib/link-navigation";
import { useNonce } from "./lib/nonce";
import styles from "./styles/app.css";
import { getToast } from "./toast.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Limpeza | Gestão de limpeza e inspeção" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { toast, headers } = await getToast(request, context);
  return data({ toast }, { headers });
}

/**
 * What a route may tell the document. `document: "bare"`: no app stylesheet, no script, no toasts or overlays (the
 * public room page, which a phone opens from a QR code: it inlines its own few styles).
 */
export type RouteHandle = { document?: "bare" };

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  const bare = useMatches().some((match) => (match.handle as RouteHandle | undefined)?.document === "bare");
  const followLink = useLinkNavigation();
  return (
    <html lang="pt-BR">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        {bare ? <link rel="icon" href="/favicon.svg" type="image/svg+xml" /> : <Links />}
      </head>
      {bare ? (
        <body>{children}</body>
      ) : (
        <body onClick={followLink}>
          {/* First in the page: on phones the toast sits in the flow above everything and covers no control. */}
          <Toaster toast={data?.toast ?? null} />
          {children}
          <LoadingOverlay />
          <OfflineModal />
          <ScrollRestoration nonce={nonce} />
          <Scripts nonce={nonce} />
        </body>
      )}
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return (
    <main className="auth-page">
      <GeneralErrorBoundary />
    </main>
  );
}
