import type { MetaFunction } from "@remix-run/react";
import { Form, useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";

import { DataList } from "~/components/data-list";
import { ErrorList, FormToast } from "~/components/forms";
import { Modal } from "~/components/modal";
import { useHydrated } from "~/lib/use-hydrated";

import { ItemFields } from "./item-fields";
import {
  BLANK_TOAST,
  checkItem,
  checkMain,
  describeItem,
  emptyItemValues,
  itemValuesOf,
  type DraftItem,
  type FormToastData,
  type ItemErrors,
  type ItemValues,
} from "./item-form";
import { INTENT, ITEMS_FIELD, SHOWN_BRANCH_FIELD } from "./register-fields";
import type { RegisterActionData, registerLoader } from "./register.server";

type Loaded = Extract<ReturnType<typeof useLoaderData<typeof registerLoader>>, { blocked: false }>;

/** 'Cadastrar agendamentos' (spec 001 §2.2); blocked with the spec's text when nothing can be scheduled (§2.1). */
export default function AgendaRegister() {
  const loaded = useLoaderData<typeof registerLoader>();
  if (loaded.blocked)
    return (
      <section className="card" aria-label="Cadastrar agendamentos">
        <p className="notice notice-info" role="status">
          {loaded.texts.blocked}
        </p>
      </section>
    );
  // A new company (?empresa=) is a new form: its environments and collaborators, no items of the other branch.
  return <RegisterForm key={loaded.branchId} loaded={loaded} />;
}

function RegisterForm({ loaded }: { loaded: Loaded }) {
  const actionData = useActionData<RegisterActionData>();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [items, setItems] = useState<DraftItem[]>(actionData?.items ?? []);
  const [step, setStep] = useState(actionData?.step ?? "main");
  const [item, setItem] = useState<{ key: number; values: ItemValues; errors?: ItemErrors }>({
    key: 0,
    values: actionData?.values ?? emptyItemValues(loaded.today),
    errors: actionData?.step === "item" ? actionData.errors : undefined,
  });
  const [mainErrors, setMainErrors] = useState(actionData?.step === "main" ? actionData.errors : undefined);
  const [toast, setToast] = useState<FormToastData | null>(actionData?.toast ?? null);
  // The line whose 'Remover' asks first: a dialog with JS, a section of the page without (the action's answer).
  const [removing, setRemoving] = useState<number | null>(actionData?.confirmRemove ?? null);

  // A post answered (without JS every step; with JS a refused 'Cadastrar') draws what the server answered.
  useEffect(() => {
    if (!actionData) return;
    setItems(actionData.items);
    setStep(actionData.step);
    if (actionData.values)
      setItem((current) => ({ key: current.key + 1, values: actionData.values!, errors: actionData.errors }));
    setMainErrors(actionData.step === "main" ? actionData.errors : undefined);
    setToast(actionData.toast ? { ...actionData.toast } : null);
  }, [actionData]);

  const openItem = () => {
    setItem((current) => ({ key: current.key + 1, values: emptyItemValues(loaded.today) }));
    setStep("item");
  };
  const addItem = () => {
    const form = formRef.current;
    if (!form) return;
    const values = itemValuesOf(new FormData(form));
    const checked = checkItem(values, { mode: "create", today: loaded.today });
    if (!checked.ok) {
      setItem((current) => ({ ...current, errors: checked.errors }));
      setToast({ ...checked.toast });
      return;
    }
    const nomeAmbiente = loaded.environments.find((choice) => choice.id === checked.ambiente)?.nome ?? "";
    setItems((current) => [...current, { ambienteId: checked.ambiente, nomeAmbiente, item: checked.item }]);
    setMainErrors((current) => (current ? { ...current, itens: [] } : current));
    setToast(null);
    setStep("main");
  };
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (submitter?.getAttribute("value") !== INTENT.save) return;
    const form = new FormData(event.currentTarget);
    const errors = checkMain({
      empresa: String(form.get("empresa") ?? ""),
      colaborador: String(form.get("colaborador") ?? ""),
      itens: items.length,
    });
    if (Object.keys(errors).length) {
      event.preventDefault();
      setMainErrors(errors);
      setToast({ ...BLANK_TOAST });
    }
  };

  const itemStepAsPage = step === "item" && !hydrated;
  const itemFields = (
    <>
      <ItemFields
        key={item.key}
        values={item.values}
        errors={item.errors}
        environments={loaded.environments}
        labels="create"
      />
      <div className="form-actions">
        <button
          type={hydrated ? "button" : "submit"}
          name="intent"
          value={INTENT.cancelItem}
          className="button"
          formNoValidate
          onClick={hydrated ? () => setStep("main") : undefined}
        >
          Cancelar
        </button>
        <button
          type={hydrated ? "button" : "submit"}
          name="intent"
          value={INTENT.addItem}
          className="button button-primary"
          onClick={hydrated ? addItem : undefined}
        >
          Cadastrar
        </button>
      </div>
    </>
  );

  // 'Tem certeza que deseja remover?' with 'Não' and 'Sim': buttons of the page with JS, posts of the form without.
  const act = (value: string, onClick: () => void) =>
    hydrated
      ? { type: "button" as const, onClick }
      : { type: "submit" as const, name: "intent", value, formNoValidate: true };
  const removeConfirm = (
    <div className="confirm">
      <p>Tem certeza que deseja remover?</p>
      <div className="form-actions">
        <button className="button" {...act(INTENT.cancelItem, () => setRemoving(null))}>
          Não
        </button>
        <button
          className="button button-danger"
          {...act(`${INTENT.confirmRemove}${removing}`, () => {
            setItems((current) => current.filter((_, index) => index !== removing));
            setRemoving(null);
          })}
        >
          Sim
        </button>
      </div>
    </div>
  );

  return (
    <section className="card" aria-label="Cadastrar agendamentos">
      <FormToast toast={toast} />
      <Form method="post" ref={formRef} onSubmit={onSubmit} className="stack agenda-register" noValidate>
        <input type="hidden" name={SHOWN_BRANCH_FIELD} value={loaded.branchId} />
        <input type="hidden" name={ITEMS_FIELD} value={JSON.stringify(items)} />
        {itemStepAsPage ? (
          <>
            <input type="hidden" name="empresa" value={loaded.branchId} />
            <input type="hidden" name="colaborador" value={actionData?.colaborador ?? ""} />
            <section className="stack agenda-item-step" aria-labelledby="item-title">
              <h2 id="item-title">Criar novo item</h2>
              {itemFields}
            </section>
          </>
        ) : (
          <>
            <div className="field-row">
              <div className="field">
                <label htmlFor="empresa">Empresa</label>
                <div className="inline-form">
                  <select
                    id="empresa"
                    name={loaded.locked ? undefined : "empresa"}
                    defaultValue={loaded.branchId}
                    disabled={loaded.locked}
                    aria-invalid={mainErrors?.empresa?.length ? true : undefined}
                    onChange={(event) =>
                      navigate(`/agendamentos/cadastrar?empresa=${encodeURIComponent(event.currentTarget.value)}`, {
                        replace: true,
                        preventScrollReset: true,
                      })
                    }
                  >
                    {loaded.branches.map((branch) => (
                      <option key={branch.id} value={branch.id}>
                        {branch.id} - {branch.nome}
                      </option>
                    ))}
                  </select>
                  {loaded.locked ? <input type="hidden" name="empresa" value={loaded.branchId} /> : null}
                  {!hydrated && !loaded.locked ? (
                    <button type="submit" name="intent" value={INTENT.load} className="button" formNoValidate>
                      Carregar
                    </button>
                  ) : null}
                </div>
                <ErrorList errors={mainErrors?.empresa} />
              </div>
              <div className="field">
                <label htmlFor="colaborador">Colaborador</label>
                <select
                  id="colaborador"
                  name="colaborador"
                  defaultValue={actionData?.colaborador ?? ""}
                  aria-invalid={mainErrors?.colaborador?.length ? true : undefined}
                  aria-describedby={mainErrors?.colaborador?.length ? "colaborador-erro" : undefined}
                >
                  <option value="">Selecione o colaborador</option>
                  {loaded.users.map((user) => (
                    <option key={user.id} value={user.id}>
                      {user.nome}
                    </option>
                  ))}
                </select>
                <ErrorList id="colaborador-erro" errors={mainErrors?.colaborador} />
              </div>
            </div>

            <div>
              <button
                type={hydrated ? "button" : "submit"}
                name="intent"
                value={INTENT.openItem}
                className="button"
                formNoValidate
                onClick={hydrated ? openItem : undefined}
              >
                Criar novo item
              </button>
            </div>

            {!hydrated && removing !== null ? (
              <section className="card" aria-labelledby="remove-title">
                <h2 id="remove-title">Remover {items[removing]?.nomeAmbiente}</h2>
                {removeConfirm}
              </section>
            ) : null}
            <ItemsTable items={items} hydrated={hydrated} onRemove={(index) => setRemoving(index)} />
            <ErrorList errors={mainErrors?.itens} />

            <div className="form-actions">
              <button type="submit" name="intent" value={INTENT.save} className="button button-primary">
                Cadastrar
              </button>
            </div>

            {hydrated && step === "item" ? (
              <Modal title="Criar novo item" onClose={() => setStep("main")}>
                <div
                  className="stack"
                  onKeyDown={(event) => {
                    // Enter in a field adds the item (it would otherwise submit the whole form).
                    if (event.key === "Enter" && event.target instanceof HTMLInputElement) {
                      event.preventDefault();
                      addItem();
                    }
                  }}
                >
                  {itemFields}
                </div>
              </Modal>
            ) : null}
            {hydrated && removing !== null ? (
              <Modal title={`Remover ${items[removing]?.nomeAmbiente ?? "item"}`} onClose={() => setRemoving(null)}>
                {removeConfirm}
              </Modal>
            ) : null}
          </>
        )}
      </Form>
    </section>
  );
}

/** The items added so far (spec 001 §2.2): Ambiente, Tipo, Semana, Horários, Vigência and Remover. */
function ItemsTable({
  items,
  hydrated,
  onRemove,
}: {
  items: DraftItem[];
  hydrated: boolean;
  onRemove: (index: number) => void;
}) {
  if (!items.length) return <p className="muted">Nenhum item adicionado.</p>;
  return (
    <DataList
      label="Itens do agendamento"
      rows={items.map((draft, index) => ({ draft, index, text: describeItem(draft) }))}
      rowKey={({ draft, index }) => `${draft.ambienteId}-${index}`}
      columns={[
        { id: "ambiente", label: "Ambiente", primary: true, cell: ({ draft }) => draft.nomeAmbiente },
        { id: "tipo", label: "Tipo", cell: ({ text }) => text.tipo },
        { id: "semana", label: "Semana", cell: ({ text }) => text.semana },
        {
          id: "horarios",
          label: "Horários",
          wrap: true,
          cell: ({ text }) =>
            text.horarios.map((range, at) => (
              <span key={at} className="agenda-item-time">
                {range}
              </span>
            )),
        },
        { id: "vigencia", label: "Vigência", cell: ({ text }) => text.vigencia },
        {
          id: "remover",
          label: "Remover",
          action: true,
          cell: ({ draft, index }) => (
            <button
              type={hydrated ? "button" : "submit"}
              name="intent"
              value={`${INTENT.removeItem}${index}`}
              className="button row-action row-action-danger"
              formNoValidate
              aria-label={`Remover ${draft.nomeAmbiente}`}
              onClick={hydrated ? () => onRemove(index) : undefined}
            >
              Remover
            </button>
          ),
        },
      ]}
    />
  );
}

export const meta: MetaFunction = () => [{ title: "Cadastrar agendamentos | Limpeza" }];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
