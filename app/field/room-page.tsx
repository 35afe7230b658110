import { useLoaderData } from "@remix-run/react";

import { FieldShell } from "./field-shell";
import { RoomHeader } from "./room-header";
import type { fieldRoomLoader } from "./room-page.server";
import { phaseOf, SlotWork } from "./slot-work";

const QR_NOTICE = {
  substituido:
    "Este QR code foi substituído por um novo. A limpeza será registrada sem leitura do QR: avise o seu gestor.",
  invalido: "Este QR code não é o deste ambiente. A limpeza será registrada sem leitura do QR.",
} as const;

export default function FieldRoomPage() {
  const { room, qr, back } = useLoaderData<typeof fieldRoomLoader>();
  // The slot to work on; when all are closed, the last one (what the cleaner just finished shows as done).
  const current = room.slots.find((slot) => phaseOf(slot) !== "closed") ?? room.slots.at(-1) ?? null;
  const others = room.slots.filter((slot) => slot !== current);
  return (
    <FieldShell>
      <RoomHeader room={room.environment} />
      {room.qr === "substituido" || room.qr === "invalido" ? <p className="notice">{QR_NOTICE[room.qr]}</p> : null}
      {current ? (
        <SlotWork
          slot={current}
          procedures={room.procedures}
          revisionPhotos={room.revisionPhotos}
          qr={qr}
          back={back}
        />
      ) : (
        <div className="empty">
          <p>
            {room.othersToday
              ? "A limpeza deste ambiente hoje é de outra pessoa da equipe."
              : "Nenhuma limpeza sua neste ambiente hoje."}
          </p>
          <a className="big" href="/campo">
            Voltar para Hoje
          </a>
        </div>
      )}
      {others.length ? (
        <>
          <h2>Outras limpezas suas aqui hoje</h2>
          <ul className="slots">
            {others.map((slot) => (
              <li key={slot.id}>
                <a className="slot" href={`/campo/limpeza/${slot.id}`} data-guardar="">
                  {slot.horaIni}–{slot.horaFim} · {slot.type}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </FieldShell>
  );
}
