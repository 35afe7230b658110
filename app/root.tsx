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
import fieldStyles from "./styles/field.css";
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
 * public room page, which a phone opens from a QR code: it inlines its own few styles). `document: "field"`: the
 * field app's pages (docs/field-app.md): its own stylesheet, manifest and one small script of its own instead of
 * Remix's (at most 30 KB of JS on a cheap phone).
 */
export type RouteHandle = { document?: "bare" | "field" };

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  const kind = useMatches()
    .map((match) => (match.handle as RouteHandle | undefined)?.document)
    .find(Boolean);
  const bare = kind === "bare";
  const followLink = useLinkNavigation();
  if (kind === "field") return <FieldDocument nonce={nonce}>{children}</FieldDocument>;
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

function FieldDocument({ children, nonce }: { children: React.ReactNode; nonce: string }) {
  return (
    <html lang="pt-BR">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#00697a" />
        <Meta />
        <link rel="stylesheet" href={fieldStyles} />
        <link rel="manifest" href="/campo/manifest.webmanifest" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="apple-touch-icon" href="/campo/icone-192.png" />
      </head>
      <body>
        {children}
        <script src="/campo/app.js" defer nonce={nonce} />
      </body>
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
