import type { FieldSlot } from "../../api/routes/field";

const STATE_CLASS: Record<FieldSlot["state"], string> = {
  "A fazer": "",
  Atrasada: "late",
  "Em andamento": "started",
  Concluída: "done",
  "Não concluída": "notDone",
};

/**
 * One slot in a list of the day: its room, floor, sector, window and state, a link to its work page. The page's
 * script marks it with what waits on the phone (`data-slot`), and caches the page it links to (`data-guardar`).
 */
export function SlotLink({ slot, next = false }: { slot: FieldSlot; next?: boolean }) {
  const stateClass = STATE_CLASS[slot.state];
  return (
    <a
      className={["slot", stateClass, next ? "next" : ""].filter(Boolean).join(" ")}
      href={`/campo/limpeza/${slot.id}`}
      data-slot={slot.id}
      data-guardar=""
    >
      <span className="room">{slot.environment.name}</span>
      <span className="meta">
        {" "}
        · {slot.horaIni}–{slot.horaFim}
        {slot.type !== "Principal" ? ` · ${slot.type}` : ""}
      </span>
      <br />
      <span className="meta">{[slot.environment.andar, slot.environment.setor].filter(Boolean).join(" · ")}</span>{" "}
      <span className={`state ${stateClass}`} data-estado>
        {slot.state}
      </span>
    </a>
  );
}
