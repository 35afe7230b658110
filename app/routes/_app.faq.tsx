import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PageHeader } from "~/components/page-header";
import { FAQ } from "~/lib/faq";
import { requirePage } from "~/session.server";

export const meta: MetaFunction = () => [{ title: "Perguntas frequentes | Limpeza" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requirePage(request, context, "/faq");
  return null;
}

/** Nine questions as native disclosures: keyboard and screen-reader friendly, no JS needed. */
export default function Faq() {
  return (
    <>
      <PageHeader title="Perguntas frequentes" />
      <div className="faq">
        {FAQ.map((entry, index) => (
          <details key={entry.question} className="faq-item" open={index === 0}>
            <summary>
              <h2>{entry.question}</h2>
            </summary>
            <p>{entry.answer}</p>
          </details>
        ))}
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
