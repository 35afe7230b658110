import { useState } from "react";

import { ErrorList } from "~/components/forms";
import { useHydrated } from "~/lib/use-hydrated";

import { countErrors, pairCount, TIPO_HELP, TIPOS, WEEKDAY_NAMES, type ItemErrors, type ItemValues } from "./item-form";
import { INTENT } from "./register-fields";

type Choice = { id: number; nome: string };

/** 'Limpeza', '1ª Revisão' (register, §2.2) or '1° Limpeza', '1° Revisão' (edit, §2.3). */
function pairLabel(index: number, labels: "create" | "edit") {
  if (labels === "create") return index === 0 ? "Limpeza" : `${index}ª Revisão`;
  return index === 0 ? "1° Limpeza" : `${index}° Revisão`;
}

function errorProps(errors: Record<string, string[] | undefined> | undefined, name: string) {
  const list = errors?.[name];
  return list?.length ? { "aria-invalid": true, "aria-describedby": `${name}-erro` } : {};
}

/**
 * The fields of one agenda item (spec 001 §2.2 'Criar novo item', §2.3): Ambiente, Tipo de Periodicidade (Semanal or
 * 12X, with its help), the weekday picker with 'Marcar todos', Quantidade de limpezas, a start and end per cleaning,
 * 'As Revisões serão com foto única?' and the validity. With JS the weekday picker hides for 12X, 'Marcar todos'
 * toggles every day and the count redraws the time pairs at once; without JS 'Marcar todos' is a tick box the server
 * applies and 'Atualizar horários' redraws the pairs (both post the form back).
 */
export function ItemFields({
  values,
  errors,
  environments,
  labels,
}: {
  values: ItemValues;
  errors?: ItemErrors;
  environments: Choice[];
  labels: "create" | "edit";
}) {
  const hydrated = useHydrated();
  const [tipo, setTipo] = useState(values.tipo);
  const [dias, setDias] = useState<string[]>(values.dias);
  const [quantidade, setQuantidade] = useState(values.quantidade);
  const count = pairCount(quantidade);
  const quantidadeErrors = { quantidade: errors?.quantidade ?? countErrors(quantidade) };
  const allTicked = dias.length === WEEKDAY_NAMES.length;

  return (
    <div className="stack agenda-item-fields">
      <div className="field">
        <label htmlFor="ambiente">Ambiente</label>
        <select id="ambiente" name="ambiente" defaultValue={values.ambiente} {...errorProps(errors, "ambiente")}>
          <option value="">Selecione o ambiente</option>
          {environments.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.nome}
            </option>
          ))}
        </select>
        <ErrorList id="ambiente-erro" errors={errors?.ambiente} />
      </div>

      <div className="field">
        <div className="label-with-help">
          <label htmlFor="tipo">Tipo de Periodicidade</label>
          <details className="help">
            <summary aria-label="Ajuda: Tipo de Periodicidade">?</summary>
            <p>{TIPO_HELP}</p>
          </details>
        </div>
        <select
          id="tipo"
          name="tipo"
          value={tipo}
          onChange={(event) => setTipo(event.currentTarget.value === "12X" ? "12X" : "Semanal")}
        >
          {TIPOS.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </div>

      {!hydrated || tipo === "Semanal" ? (
        <fieldset className="weekday-picker" {...errorProps(errors, "dias")}>
          <legend>Dias da semana{hydrated ? null : " (para Semanal)"}</legend>
          <div className="weekday-options">
            {WEEKDAY_NAMES.map((name, index) => (
              <label key={name} className="weekday-option">
                <input
                  type="checkbox"
                  name="dias"
                  value={index}
                  checked={dias.includes(String(index))}
                  onChange={(event) => {
                    const checked = event.currentTarget.checked;
                    setDias((current) =>
                      checked ? [...current, String(index)] : current.filter((day) => day !== String(index)),
                    );
                  }}
                />
                {name}
              </label>
            ))}
          </div>
          {hydrated ? (
            <button
              type="button"
              className="button"
              onClick={() => setDias(allTicked ? [] : WEEKDAY_NAMES.map((_, index) => String(index)))}
            >
              {allTicked ? "Desmarcar todos" : "Marcar todos"}
            </button>
          ) : (
            // Without JS the box says what the next post does: tick all, or (all ticked) untick all.
            <label className="weekday-option">
              <input type="checkbox" name={allTicked ? "nenhumDia" : "todosDias"} value="1" />
              {allTicked ? "Desmarcar todos" : "Marcar todos"}
            </label>
          )}
          <ErrorList id="dias-erro" errors={errors?.dias} />
        </fieldset>
      ) : null}

      <div className="field field-with-action">
        <div className="field">
          <label htmlFor="quantidade">Quantidade de limpezas</label>
          <input
            id="quantidade"
            name="quantidade"
            type="text"
            inputMode="numeric"
            maxLength={2}
            value={quantidade}
            onChange={(event) => setQuantidade(event.currentTarget.value)}
            {...errorProps(quantidadeErrors, "quantidade")}
          />
          <ErrorList id="quantidade-erro" errors={quantidadeErrors.quantidade} />
        </div>
        {hydrated ? null : (
          <button type="submit" name="intent" value={INTENT.pairs} className="button" formNoValidate>
            Atualizar horários
          </button>
        )}
      </div>

      <ol className="time-pairs">
        {Array.from({ length: count }, (_, index) => (
          <li key={index}>
            <fieldset className="time-pair">
              <legend>{pairLabel(index, labels)}</legend>
              <div className="field">
                <label htmlFor={`inicio-${index}`}>Início</label>
                <input
                  id={`inicio-${index}`}
                  name={`inicio-${index}`}
                  type="time"
                  defaultValue={values.inicio[index] ?? ""}
                  {...errorProps(errors, `inicio-${index}`)}
                />
              </div>
              <div className="field">
                <label htmlFor={`fim-${index}`}>Fim</label>
                <input
                  id={`fim-${index}`}
                  name={`fim-${index}`}
                  type="time"
                  defaultValue={values.fim[index] ?? ""}
                  {...errorProps(errors, `fim-${index}`)}
                />
              </div>
              {/* Under both fields, across the pair: a message under one 120 px field wrapped into five lines and
                  stretched its neighbour (issue 27). Each keeps its id, so its field still names it. */}
              <ErrorList id={`inicio-${index}-erro`} errors={errors?.[`inicio-${index}`]} />
              <ErrorList id={`fim-${index}-erro`} errors={errors?.[`fim-${index}`]} />
            </fieldset>
          </li>
        ))}
      </ol>

      <label className="checkbox-field">
        <input type="checkbox" name="fotoUnica" value="1" defaultChecked={values.fotoUnica} />
        As Revisões serão com foto única?
      </label>

      <div className="field-row">
        <div className="field">
          <label htmlFor="vigIni">Vigência inicial</label>
          <input id="vigIni" name="vigIni" type="date" defaultValue={values.vigIni} {...errorProps(errors, "vigIni")} />
          <ErrorList id="vigIni-erro" errors={errors?.vigIni} />
        </div>
        <div className="field">
          <label htmlFor="vigFim">Vigência final</label>
          <input id="vigFim" name="vigFim" type="date" defaultValue={values.vigFim} {...errorProps(errors, "vigFim")} />
          <ErrorList id="vigFim-erro" errors={errors?.vigFim} />
        </div>
      </div>
    </div>
  );
}
