import { Form, Link, useFetcher, useLoaderData, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";

import { ListSearch, Pager, SortHeader } from "~/components/list-controls";
import { ConfirmRemoval, Modal } from "~/components/modal";
import { useHydrated } from "~/lib/use-hydrated";

import { DuplicateForm } from "./duplicate-form";
import type { DuplicateData } from "./duplicate.server";
import type { catalogueListLoader } from "./list.server";
import { DEFAULT_SORT } from "./sort";

/**
 * The list tab. Without JS: the tick boxes belong to a GET form that opens the duplicate page, 'Marcar Todos' is a
 * link, 'Remover' opens a confirmation page. With JS the same controls open dialogs in place.
 */
export default function CatalogueList() {
  const { kind, texts, title, hasColor, canEdit, params, page, tickAll } = useLoaderData<typeof catalogueListLoader>();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const hydrated = useHydrated();
  const [ticked, setTicked] = useState<Set<number>>(new Set(tickAll ? page.items.map((item) => item.id) : []));
  const [removing, setRemoving] = useState<number | null>(null);
  const duplicate = useFetcher<DuplicateData>();
  const [duplicateOpen, setDuplicateOpen] = useState(false);
  // New list data means a save, removal or duplicate finished: start over with nothing ticked and no dialog.
  useEffect(() => {
    setTicked(new Set(tickAll ? page.items.map((item) => item.id) : []));
    setRemoving(null);
    setDuplicateOpen(false);
  }, [page, tickAll]);

  const allTicked = page.items.length > 0 && page.items.every((item) => ticked.has(item.id));
  const toggleAll = () => setTicked(allTicked ? new Set() : new Set(page.items.map((item) => item.id)));
  const toggle = (id: number) =>
    setTicked((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const tickAllHref = (() => {
    const search = new URLSearchParams(location.search);
    if (tickAll) search.delete("marcar");
    else search.set("marcar", "todos");
    const query = search.toString();
    return query ? `${location.pathname}?${query}` : location.pathname;
  })();

  const openDuplicate = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const ids = [...ticked].join(",");
    duplicate.load(`/${kind}/duplicar?ids=${ids}`);
    setDuplicateOpen(true);
  };

  return (
    <section aria-label={texts.listTab}>
      <ListSearch params={params} label={`Buscar ${title.toLowerCase()}`} defaultSort={DEFAULT_SORT} />
      <Form method="get" action={`/${kind}/duplicar`} id="selecao" onSubmit={hydrated ? openDuplicate : undefined}>
        <input type="hidden" name="redirectTo" value={here} />
      </Form>
      {page.items.length === 0 ? (
        <p className="empty-state">{params.q ? "Nenhum resultado para a busca." : texts.empty}</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                {canEdit ? (
                  <th scope="col" className="col-tick">
                    {hydrated ? (
                      <button type="button" className="link-button" onClick={toggleAll}>
                        {allTicked ? "Desmarcar Todos" : "Marcar Todos"}
                      </button>
                    ) : (
                      <Link to={tickAllHref}>{tickAll ? "Desmarcar Todos" : "Marcar Todos"}</Link>
                    )}
                  </th>
                ) : null}
                <SortHeader column="empresa" label="Empresa" params={params} defaultSort={DEFAULT_SORT} />
                <SortHeader column="nome" label={title} params={params} defaultSort={DEFAULT_SORT} />
                {hasColor ? <SortHeader column="cor" label="Cor" params={params} defaultSort={DEFAULT_SORT} /> : null}
                {canEdit ? (
                  <>
                    <th scope="col">Editar</th>
                    <th scope="col">Remover</th>
                  </>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {page.items.map((item) => (
                <tr key={item.id}>
                  {canEdit ? (
                    <td className="col-tick">
                      <input
                        type="checkbox"
                        name="ids"
                        value={item.id}
                        form="selecao"
                        aria-label={`Selecionar ${item.name} (${item.empresa})`}
                        checked={hydrated ? ticked.has(item.id) : undefined}
                        defaultChecked={hydrated ? undefined : tickAll}
                        onChange={() => toggle(item.id)}
                      />
                    </td>
                  ) : null}
                  <td>{item.empresa}</td>
                  <td>{item.name}</td>
                  {hasColor ? (
                    <td>
                      <span className="color-chip" style={{ background: item.color ?? undefined }} aria-hidden="true" />{" "}
                      {item.color}
                    </td>
                  ) : null}
                  {canEdit ? (
                    <>
                      <td>
                        <Link
                          to={`/${kind}/${item.id}/editar?redirectTo=${encodeURIComponent(here)}`}
                          aria-label={`Editar ${item.name}`}
                        >
                          Editar
                        </Link>
                      </td>
                      <td>
                        <Link
                          to={`/${kind}/${item.id}/remover?redirectTo=${encodeURIComponent(here)}`}
                          aria-label={`Remover ${item.name}`}
                          onClick={(event) => {
                            event.preventDefault();
                            setRemoving(item.id);
                          }}
                        >
                          Remover
                        </Link>
                      </td>
                    </>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="list-actions">
        {canEdit && (!hydrated || ticked.size > 0) ? (
          <button type="submit" form="selecao" className="button">
            {texts.duplicateButton}
          </button>
        ) : null}
        <a className="button" href={`/${kind}/exportar.xlsx${location.search}`} download>
          Exportar Excel
        </a>
      </div>
      <Pager params={params} total={page.total} defaultSort={DEFAULT_SORT} />

      {removing !== null ? (
        <Modal title="Remover" onClose={() => setRemoving(null)}>
          <ConfirmRemoval
            action={`/${kind}/${removing}/remover`}
            redirectTo={here}
            onCancel={() => setRemoving(null)}
          />
        </Modal>
      ) : null}
      {duplicateOpen ? (
        <Modal title={texts.duplicateDialog} onClose={() => setDuplicateOpen(false)}>
          {duplicate.data ? (
            <DuplicateForm
              data={duplicate.data}
              onBranchChange={(branchId) =>
                duplicate.load(`/${kind}/duplicar?ids=${[...ticked].join(",")}&filial=${branchId}`)
              }
              onCancel={() => setDuplicateOpen(false)}
              redirectTo={here}
            />
          ) : (
            <p>Carregando ...</p>
          )}
        </Modal>
      ) : null}
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
