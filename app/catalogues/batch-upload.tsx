import { Form, Link, useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";

import { CSV_INVALID, isCsvFile } from "../../api/domain/catalogues";
import { UNEXPECTED } from "../../api/domain/messages";

import { ErrorList, FormToast } from "~/components/forms";
import { useHydrated } from "~/lib/use-hydrated";
import type { ToastInput } from "~/toast.server";

import { BATCH_FAILED_HINT, type BatchFileResult } from "./register-form";

type PendingFile = {
  id: string;
  file: File;
  progress: number;
  state: "pending" | "sending" | "done" | "error";
  errors: string[];
};

function readableSize(bytes: number) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toLocaleString("pt-BR", { maximumFractionDigits: 1 })} KB`;
  return `${(bytes / 1024 / 1024).toLocaleString("pt-BR", { maximumFractionDigits: 1 })} MB`;
}

/**
 * 'Cadastro em lote': branch, CSV files, 'Cadastrar', 'Baixar Modelo'. Without JS the form posts every file at
 * once and the page lists each file's result. With JS files are dropped or chosen into a list and sent one by
 * one with their progress to the resource route {basePath}/importar (JSON answers); each file is all-or-nothing on
 * the server. When every file is in, the list ({basePath}) opens with the success toast that route set. The
 * template is {basePath}/modelo.csv. Used by the four catalogues and the pre-registered CPFs.
 */
export function BatchUpload({
  basePath,
  hint,
  branches,
  intent,
  serverResults,
  branchId,
  defaultBranchId,
  busy,
  failedTitle,
}: {
  /** The list's path ('/setores', '/pre-cadastro-usuarios'): the upload route and the template are under it. */
  basePath: string;
  /** What the file must hold, shown under the file field. */
  hint?: ReactNode;
  branches: { id: number; nome: string }[];
  intent: string;
  serverResults: BatchFileResult[];
  /** The branch of the post that failed (no JS), selected again. */
  branchId?: string;
  /** The branch the form starts on (the user's own or the main company's first). */
  defaultBranchId: number;
  busy: boolean;
  failedTitle: string;
}) {
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const branch = useRef<HTMLSelectElement>(null);
  const hydrated = useHydrated();
  const [files, setFiles] = useState<PendingFile[]>([]);
  const [toast, setToast] = useState<ToastInput | null>(null);
  const [sending, setSending] = useState(false);

  const add = (list: FileList | null) => {
    if (!list) return;
    const chosen = [...list].map((file) => ({
      id: `${file.name}-${file.size}-${Math.random()}`,
      file,
      progress: 0,
      state: "pending" as const,
      errors: [],
    }));
    setFiles((current) => [...current, ...chosen]);
    if (input.current) input.current.value = "";
  };
  // Files chosen before the script took over (a slow phone) are in the input, not in the list: taken in once.
  useEffect(() => {
    if (input.current?.files?.length) add(input.current.files);
  }, []);
  const update = (id: string, patch: Partial<PendingFile>) =>
    setFiles((current) => current.map((entry) => (entry.id === id ? { ...entry, ...patch } : entry)));

  const send = (entry: PendingFile, earlier: number) =>
    new Promise<number | null>((resolve) => {
      const body = new FormData();
      body.set("idEmpresaFilial", branch.current?.value ?? "");
      body.set("anteriores", String(earlier));
      body.set("arquivos", entry.file);
      const xhr = new XMLHttpRequest();
      xhr.open("POST", `${basePath}/importar`);
      xhr.setRequestHeader("accept", "application/json");
      xhr.upload.onprogress = (event) =>
        event.lengthComputable && update(entry.id, { progress: Math.round((event.loaded / event.total) * 100) });
      xhr.onload = () => {
        let outcome: BatchFileResult | undefined;
        let created = 0;
        try {
          const answer = JSON.parse(xhr.responseText);
          outcome = answer?.files?.[0];
          created = Number(answer?.created) || 0;
        } catch {
          outcome = undefined;
        }
        const ok = xhr.status === 200 && outcome?.ok === true;
        const errors = outcome?.errors?.length ? outcome.errors : [UNEXPECTED];
        update(entry.id, { progress: 100, state: ok ? "done" : "error", errors: ok ? [] : errors });
        resolve(ok ? created : null);
      };
      xhr.onerror = () => {
        update(entry.id, { state: "error", errors: ["Falha de conexão ao enviar o arquivo."] });
        resolve(null);
      };
      update(entry.id, { state: "sending", progress: 0 });
      xhr.send(body);
    });

  const submitWithProgress = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const pending = files.filter((entry) => entry.state !== "done");
    if (!pending.length || pending.some((entry) => !isCsvFile(entry.file))) {
      setToast({ type: "error", title: failedTitle, description: CSV_INVALID });
      return;
    }
    setToast(null);
    setSending(true);
    let allOk = true;
    let created = 0;
    for (const entry of pending) {
      const count = await send(entry, created);
      if (count === null) allOk = false;
      else created += count;
    }
    setSending(false);
    if (allOk) navigate(basePath);
    else
      setToast({
        type: "error",
        title: failedTitle,
        description: BATCH_FAILED_HINT,
      });
  };

  return (
    <>
      <FormToast toast={toast} />
      <Form
        method="post"
        encType="multipart/form-data"
        className="stack"
        onSubmit={hydrated ? submitWithProgress : undefined}
      >
        <input type="hidden" name="intent" value={intent} />
        <div className="field narrow-form">
          <label htmlFor="idEmpresaFilial">Empresa / filial</label>
          <select
            id="idEmpresaFilial"
            name="idEmpresaFilial"
            ref={branch}
            defaultValue={branchId ?? String(defaultBranchId)}
          >
            {branches.map((option) => (
              <option key={option.id} value={option.id}>
                {option.id} - {option.nome}
              </option>
            ))}
          </select>
        </div>
        <div
          className="drop-zone"
          onDragOver={(event) => event.preventDefault()}
          onDrop={(event) => {
            event.preventDefault();
            add(event.dataTransfer.files);
          }}
        >
          <label htmlFor="arquivos">Arraste os arquivos CSV para cá ou clique para procurar</label>
          <input
            ref={input}
            id="arquivos"
            name="arquivos"
            type="file"
            multiple
            accept=".csv,text/csv,application/vnd.ms-excel"
            onChange={hydrated ? (event) => add(event.currentTarget.files) : undefined}
            aria-describedby={hint ? "arquivos-dica" : undefined}
          />
          {hint ? (
            <p id="arquivos-dica" className="muted field-hint">
              {hint}
            </p>
          ) : null}
        </div>
        {files.length ? (
          <ul className="file-list" aria-label="Arquivos">
            {files.map((entry) => (
              <li key={entry.id} className={`file-${entry.state}`}>
                <span>
                  {entry.file.name} <span className="muted">({readableSize(entry.file.size)})</span>
                </span>
                <progress max={100} value={entry.progress} aria-label={`Envio de ${entry.file.name}`} />
                {entry.state === "done" ? <span className="ok-text">Enviado</span> : null}
                {entry.state === "pending" ? (
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => setFiles((current) => current.filter((other) => other.id !== entry.id))}
                  >
                    Remover
                  </button>
                ) : null}
                <ErrorList errors={entry.errors} />
              </li>
            ))}
          </ul>
        ) : null}
        {serverResults.length ? (
          <ul className="file-list" aria-label="Resultado do envio">
            {serverResults.map((result) => (
              <li key={result.name} className={result.ok ? "file-done" : "file-error"}>
                <span>{result.name}</span>{" "}
                <span className={result.ok ? "ok-text" : "error-text"}>
                  {result.ok ? "Cadastrado" : "Não cadastrado"}
                </span>
                <ErrorList errors={result.errors} />
              </li>
            ))}
          </ul>
        ) : null}
        <div className="form-actions">
          <Link className="button" to={`${basePath}/modelo.csv`} reloadDocument download>
            Baixar Modelo
          </Link>
          <button type="submit" className="button button-primary" disabled={busy || sending}>
            Cadastrar
          </button>
        </div>
      </Form>
    </>
  );
}
