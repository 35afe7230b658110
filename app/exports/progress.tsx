import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

import { PageHeader } from "~/components/page-header";

import type { exportProgressLoader } from "./exports.server";

/** How often the page asks again while the file is being made (with JS; without, the page refreshes itself). */
const POLL_MS = 1500;
const REFRESH_S = 3;

const queueText = (ahead: number) =>
  ahead === 0
    ? "Na fila: esta é a próxima exportação."
    : ahead === 1
      ? "Na fila: 1 exportação antes desta."
      : `Na fila: ${ahead} exportações antes desta.`;

/**
 * /exportacoes/:id (docs/exports.md): the job's state. Waiting or running, a progress bar and what it is waiting
 * for; with JS the page asks again every 1.5 s and starts the download once the file is ready, without JS it
 * refreshes itself every 3 s. Ready: the download link, kept until the time shown. Refused or failed: why.
 */
export function ExportProgress() {
  const { job } = useLoaderData<typeof exportProgressLoader>();
  const revalidator = useRevalidator();
  const working = job.status === "na_fila" || job.status === "gerando";
  const wasWorking = useRef(working);

  useEffect(() => {
    if (!working) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [working, revalidator]);

  // Seen running and now ready: the download starts by itself (the link stays for another try).
  useEffect(() => {
    if (working) wasWorking.current = true;
    else if (wasWorking.current && job.status === "pronta") {
      wasWorking.current = false;
      window.location.assign(job.fileUrl);
    }
  }, [working, job.status, job.fileUrl]);

  return (
    <>
      <PageHeader title="Exportação" />
      {working ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(REFRESH_S)} />
        </noscript>
      ) : null}
      <section className="export-job" aria-live="polite">
        <h2>{job.title}</h2>
        <p className="muted">Pedida em {job.requestedAt}</p>
        {working ? (
          <>
            <progress className="export-progress" aria-label="Progresso da exportação" />
            <p>{job.status === "na_fila" ? queueText(job.ahead) : `Gerando o arquivo… ${job.size} até agora.`}</p>
            {job.status === "na_fila" ? null : (
              <p className="muted">
                {job.waitedS > 0 ? `Esperou ${job.waitedS} s na fila. ` : ""}
                Você pode sair desta página: o arquivo fica em Minhas exportações.
              </p>
            )}
          </>
        ) : job.status === "pronta" ? (
          <>
            <p>
              Arquivo pronto: <strong>{job.fileName}</strong> ({job.size}).
            </p>
            <p>
              <a className="button button-primary" href={job.fileUrl} download={job.fileName ?? true}>
                Baixar arquivo
              </a>
            </p>
            {job.keptUntil ? <p className="muted">Disponível até {job.keptUntil}.</p> : null}
          </>
        ) : (
          <>
            <p role="alert">Não foi possível gerar o arquivo. {job.message}</p>
            {job.back ? (
              <p>
                <Link className="button" to={job.back}>
                  Voltar ao relatório
                </Link>
              </p>
            ) : null}
          </>
        )}
        <p>
          <Link to="/exportacoes">Minhas exportações</Link>
        </p>
      </section>
    </>
  );
}
