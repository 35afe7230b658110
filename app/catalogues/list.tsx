import { Form, useFetcher, useLoaderData, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";

import { ColorChip } from "~/components/color-chip";
import { DataList, type DataColumn } from "~/components/data-list";
import { ListSearch, Pager } from "~/components/list-controls";
import { ConfirmRemoval, Modal } from "~/components/modal";
import { useRowTicks } from "~/components/row-ticks";
import { sortFields, sortLinks } from "~/components/sort-header";
import { NO_SEARCH_RESULTS } from "~/lib/search-texts";
import { useHydrated } from "~/lib/use-hydrated";

import { DuplicateForm } from "./duplicate-form";
import type { DuplicateData } from "./duplicate.server";
import type { catalogueListLoader } from "./list.server";
import { DEFAULT_SORT } from "./sort";

type Item = ReturnType<typeof useLoaderData<typeof catalogueListLoader>>["page"]["items"][number];

/**
 * The list tab. Without JS: the tick boxes belong to a GET form that opens the duplicate page, 'Marcar Todos' is a
 * link, 'Remover' opens a confirmation page. With JS the same controls open dialogs in place.
 */
export default function CatalogueList() {
  const { kind, texts, title, hasColor, canEdit, params, page, tickAll } = useLoaderData<typeof catalogueListLoader>();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const back = encodeURIComponent(here);
  const hydrated = useHydrated();
  const { ticked, column } = useRowTicks({
    rows: page.items,
    data: page,
    tickAll,
    boxes: {
      form: "selecao",
      name: "ids",
      key: (item) => item.id,
      parse: Number,
      label: (item) => `Selecionar ${item.name} (${item.empresa})`,
    },
  });
  const [removing, setRemoving] = useState<Item | null>(null);
  const duplicate = useFetcher<DuplicateData>();
  const [duplicateOpen, setDuplicateOpen] = useState(false);
  // New list data means a save, removal or duplicate finished: no dialog (useRowTicks starts the ticks over).
  useEffect(() => {
    setRemoving(null);
    setDuplicateOpen(false);
  }, [page, tickAll]);

  // The server opens the dialog on the first branch the ticked items do not come from.
  const openDuplicate = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    duplicate.load(`/${kind}/duplicar?ids=${[...ticked].join(",")}`);
    setDuplicateOpen(true);
  };
  // The fetcher keeps the last dialog's data: show it only when it is about the items ticked now.
  const duplicateData = duplicate.data?.ids.join(",") === [...ticked].join(",") ? duplicate.data : undefined;

  const columns: DataColumn<Item>[] = [
    { id: "empresa", label: "Empresa", sortKey: "empresa", cell: (item) => item.empresa },
    { id: "nome", label: title, sortKey: "nome", primary: true, cell: (item) => item.name },
    ...(hasColor
      ? [
          {
            id: "cor",
            label: "Cor",
            sortKey: "cor",
            cell: (item: Item) => (
              <>
                <ColorChip color={item.color} /> {item.color}
              </>
            ),
          },
        ]
      : []),
  ];

  return (
    <section aria-label={texts.listTab}>
      <ListSearch
        params={params}
        label={`Buscar ${title.toLowerCase()}`}
        defaultSort={DEFAULT_SORT}
        sortFields={sortFields(columns)}
      />
      <Form method="get" action={`/${kind}/duplicar`} id="selecao" onSubmit={hydrated ? openDuplicate : undefined}>
        <input type="hidden" name="redirectTo" value={here} />
      </Form>
      {page.items.length === 0 ? (
        <p className="empty-state">{params.q ? NO_SEARCH_RESULTS : texts.empty}</p>
      ) : (
        <DataList
          label={title}
          rows={page.items}
          rowKey={(item) => item.id}
          sort={sortLinks({ params, defaultSort: DEFAULT_SORT })}
          tick={canEdit ? column : undefined}
          columns={columns}
          actions={
            canEdit
              ? [
                  {
                    label: "Editar",
                    action: (item) => ({
                      label: "Editar",
                      to: `/${kind}/${item.id}/editar?redirectTo=${back}`,
                      accessibleName: `Editar ${item.name}`,
                    }),
                  },
                  {
                    label: "Remover",
                    action: (item) => ({
                      label: "Remover",
                      to: `/${kind}/${item.id}/remover?redirectTo=${back}`,
                      accessibleName: `Remover ${item.name}`,
                      danger: true,
                      onClick: (event) => {
                        event.preventDefault();
                        setRemoving(item);
                      },
                    }),
                  },
                ]
              : []
          }
        />
      )}
      <div className="list-actions">
        {canEdit && (!hydrated || ticked.size > 0) ? (
          <button type="submit" form="selecao" className="button">
            {texts.duplicateButton}
          </button>
        ) : null}
        <a className="button" href={`/${kind}/exportar.xlsx${location.search}`}>
          Exportar Excel
        </a>
      </div>
      <Pager params={params} total={page.total} defaultSort={DEFAULT_SORT} />

      {removing !== null ? (
        <Modal title={`Remover ${removing.name}`} subtitle={removing.empresa} onClose={() => setRemoving(null)}>
          <ConfirmRemoval
            action={`/${kind}/${removing.id}/remover`}
            redirectTo={here}
            onCancel={() => setRemoving(null)}
          />
        </Modal>
      ) : null}
      {duplicateOpen ? (
        <Modal title={texts.duplicateDialog} onClose={() => setDuplicateOpen(false)}>
          {duplicateData ? (
            <DuplicateForm
              data={duplicateData}
              onBranchChange={(branchId) =>
                duplicate.load(`/${kind}/duplicar?ids=${[...ticked].join(",")}&filial=${branchId}`)
              }
              onCancel={() => setDuplicateOpen(false)}
              redirectTo={here}
              busy={duplicate.state !== "idle"}
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
