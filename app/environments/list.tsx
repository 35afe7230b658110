import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";

import { DataList, type DataColumn } from "~/components/data-list";
import { FilterChoices } from "~/components/filter-choices";
import { ListSearch, Pager } from "~/components/list-controls";
import { ConfirmRemoval, Modal } from "~/components/modal";
import { useRowTicks } from "~/components/row-ticks";
import { sortFields, sortLinks } from "~/components/sort-header";
import { NO_SEARCH_RESULTS } from "~/lib/search-texts";
import { useHydrated } from "~/lib/use-hydrated";

import { ENVIRONMENT_IMPORTER_HREF, QR_BULK_ACTION } from "./links";
import type { EnvironmentRow, environmentListLoader } from "./list.server";
import { QrChoice, type QrStep } from "./qr-choice";
import { DEFAULT_SORT } from "./sort";

const COLUMNS: DataColumn<EnvironmentRow>[] = [
  { id: "empresa", label: "Empresa", sortKey: "empresa", cell: (row) => row.empresa },
  { id: "ambiente", label: "Ambiente", sortKey: "ambiente", primary: true, cell: (row) => row.name },
  { id: "categoria", label: "Categoria", sortKey: "categoria", cell: (row) => row.categoria },
  { id: "setor", label: "Setor", sortKey: "setor", cell: (row) => row.setor },
  { id: "andar", label: "Andar", sortKey: "andar", cell: (row) => row.andar },
  { id: "riscos", label: "Riscos", sortKey: "riscos", wrap: true, cell: (row) => row.riscos },
  {
    id: "obrigatorios",
    label: "Procedimentos Obrigatórios",
    sortKey: "obrigatorios",
    wrap: true,
    cell: (row) => row.obrigatorios,
  },
  { id: "opcionais", label: "Procedimentos Opcionais", sortKey: "opcionais", wrap: true, cell: (row) => row.opcionais },
];
const SORT_FIELDS = sortFields(COLUMNS);

/**
 * The list tab (spec 000 §2 'Environments'). Without JS: the 'Filtrar por' choices are tick boxes of the search form
 * (in a <details>), 'Marcar Todos' is a link (?marcar=todos), the row tick boxes belong to a plain POST form that
 * downloads the ticked rows' QR PDF, and QrCode / Remover open pages. With JS the same links open dialogs in place.
 */
export default function EnvironmentList() {
  const {
    texts: T,
    canEdit,
    params,
    campos,
    tickAll,
    rows,
    total,
    loadError,
  } = useLoaderData<typeof environmentListLoader>();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const hydrated = useHydrated();
  const { ticked, column } = useRowTicks({
    rows,
    data: rows,
    tickAll,
    boxes: {
      form: "selecao",
      name: "ids",
      key: (row) => row.id,
      parse: Number,
      label: (row) => `Selecionar ${row.name} (${row.empresa})`,
    },
  });
  const [removing, setRemoving] = useState<EnvironmentRow | null>(null);
  const [qr, setQr] = useState<{ row: EnvironmentRow; step: QrStep } | null>(null);
  // New list data means a search, a save or a removal: no dialog (useRowTicks starts the ticks over).
  useEffect(() => {
    setRemoving(null);
    setQr(null);
  }, [rows, tickAll]);
  const back = encodeURIComponent(here);

  return (
    <section aria-label={T.listTab}>
      <ListSearch params={params} label="Buscar ambiente" defaultSort={DEFAULT_SORT} sortFields={SORT_FIELDS}>
        <FilterChoices title={T.filterTitle} fields={T.searchFields} chosen={campos} defaultChoice="ambiente" />
      </ListSearch>
      <form method="post" action={QR_BULK_ACTION} id="selecao">
        <input type="hidden" name="redirectTo" value={here} />
      </form>
      {loadError ? (
        <p className="empty-state" role="alert">
          {loadError}
        </p>
      ) : rows.length === 0 ? (
        <p className="empty-state">{params.q ? NO_SEARCH_RESULTS : T.empty}</p>
      ) : (
        <DataList
          label="Ambientes"
          wide
          cardsBelow={1400}
          rows={rows}
          rowKey={(row) => row.id}
          sort={sortLinks({ params, defaultSort: DEFAULT_SORT })}
          tick={canEdit ? column : undefined}
          columns={COLUMNS}
          actions={[
            {
              label: "QrCode",
              action: (row) => ({
                label: "QR code",
                to: `/ambientes/${row.id}/qrcode?redirectTo=${back}`,
                accessibleName: `QR code de ${row.name}`,
                onClick: (event) => {
                  event.preventDefault();
                  setQr({ row, step: "tipo" });
                },
              }),
            },
            ...(canEdit
              ? [
                  {
                    label: "Editar",
                    action: (row: EnvironmentRow) => ({
                      label: "Editar",
                      to: `/ambientes/${row.id}/editar?redirectTo=${back}`,
                      accessibleName: `Editar ${row.name}`,
                    }),
                  },
                  {
                    label: "Remover",
                    action: (row: EnvironmentRow) => ({
                      label: "Remover",
                      to: `/ambientes/${row.id}/remover?redirectTo=${back}`,
                      accessibleName: `Remover ${row.name}`,
                      danger: true,
                      onClick: (event: React.MouseEvent) => {
                        event.preventDefault();
                        setRemoving(row);
                      },
                    }),
                  },
                ]
              : []),
          ]}
        />
      )}
      <div className="list-actions">
        <a className="button" href={`/ambientes/exportar.xlsx${location.search}`}>
          Exportar Excel
        </a>
        {canEdit && (!hydrated || ticked.size > 0) ? (
          <button type="submit" form="selecao" className="button">
            Exportar QR codes
          </button>
        ) : null}
        {canEdit ? (
          <Link className="button" to={ENVIRONMENT_IMPORTER_HREF}>
            Importar planilha
          </Link>
        ) : null}
      </div>
      <Pager params={params} total={total} defaultSort={DEFAULT_SORT} />

      {removing !== null ? (
        <Modal title={`Remover ${removing.name}`} subtitle={removing.empresa} onClose={() => setRemoving(null)}>
          <ConfirmRemoval
            action={`/ambientes/${removing.id}/remover`}
            redirectTo={here}
            onCancel={() => setRemoving(null)}
          />
        </Modal>
      ) : null}
      {qr !== null ? (
        <Modal title={`QR code: ${qr.row.name}`} subtitle={qr.row.empresa} onClose={() => setQr(null)}>
          <QrChoice
            environment={qr.row}
            step={qr.step}
            onStep={(step) => setQr({ row: qr.row, step })}
            onBack={() => setQr(null)}
            reissueHref={canEdit ? `/ambientes/${qr.row.id}/qrcode?etapa=reemitir&redirectTo=${back}` : undefined}
          />
        </Modal>
      ) : null}
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
