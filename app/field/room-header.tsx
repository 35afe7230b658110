type Room = { name: string; andar: string; setor: string; categoria: string };

/** A room as the field pages name it: its name, then floor, sector and category. */
export function RoomHeader({ room }: { room: Room }) {
  return (
    <>
      <h1>{room.name}</h1>
      <p className="hint">{[room.andar, room.setor, room.categoria].filter(Boolean).join(" · ")}</p>
    </>
  );
}
