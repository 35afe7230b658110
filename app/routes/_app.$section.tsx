import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";

import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PageHeader } from "~/components/page-header";
import { isPagePath, PAGES } from "~/lib/navigation";
import { requirePage } from "~/session.server";

/**
 * Pages of the route table that later work fills in. The guard is already the real one; the page says plainly
 * that the screen is not built yet. A page gets its own route file when it is built, and that file wins.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const path = `/${params.section}`;
  if (!isPagePath(path)) throw redirect("/");
  await requirePage(request, context, path);
  return { title: PAGES[path].title, path };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "Página"} | Limpeza` }];

export default function PendingPage() {
  const { title, path } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={title} />
      <section className="card placeholder" aria-labelledby="placeholder-title">
        <h2 id="placeholder-title">Tela em construção</h2>
        <p>
          A tela <strong>{title}</strong> ({path}) ainda não foi construída nesta versão do sistema. O acesso a ela já
          segue as regras de permissão do seu nível de acesso; o conteúdo chega em uma próxima entrega.
        </p>
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
