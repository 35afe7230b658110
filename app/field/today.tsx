import { useLoaderData } from "@remix-run/react";

import { formatDateBR } from "~/lib/format";

import { FieldShell } from "./field-shell";
import { SlotLink } from "./slot-link";
import type { todayLoader } from "./today.server";

const COUNTS = [
  ["aFazer", "A fazer"],
  ["atrasada", "Atrasadas"],
  ["emAndamento", "Em andamento"],
  ["concluida", "Concluídas"],
  ["naoConcluida", "Não concluídas"],
] as const;

export default function TodayPage() {
  const { nome, day } = useLoaderData<typeof todayLoader>();
  const next = day.today.find((slot) => slot.id === day.nextId);
  const firstName = nome.split(" ")[0];
  return (
    <FieldShell>
      <h1>
        Olá, {firstName}! Hoje, {formatDateBR(day.date)}
      </h1>
      <ul className="counts" aria-label="Resumo do dia">
        {COUNTS.map(([key, label]) => (
          <li key={key}>
            <strong>{day.counts[key]}</strong>
            {label}
          </li>
        ))}
      </ul>
      {next ? (
        <>
          <h2>Próxima</h2>
          <SlotLink slot={next} next />
        </>
      ) : null}
      {day.yesterday.length ? (
        <>
          <h2>De ontem, ainda em aberto</h2>
          <ul className="slots">
            {day.yesterday.map((slot) => (
              <li key={slot.id}>
                <SlotLink slot={slot} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h2>Limpezas de hoje</h2>
      {day.today.length ? (
        <ul className="slots">
          {day.today.map((slot) => (
            <li key={slot.id}>
              <SlotLink slot={slot} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="empty">Nenhuma limpeza sua hoje.</p>
      )}
      <details className="later">
        <summary>Amanhã ({day.tomorrow.length})</summary>
        {day.tomorrow.length ? (
          <ul className="slots">
            {day.tomorrow.map((slot) => (
              <li key={slot.id}>
                <SlotLink slot={slot} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="empty">Nenhuma limpeza sua amanhã.</p>
        )}
      </details>
    </FieldShell>
  );
}
