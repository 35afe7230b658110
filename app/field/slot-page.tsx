import { useLoaderData } from "@remix-run/react";

import { FieldShell } from "./field-shell";
import { RoomHeader } from "./room-header";
import type { slotPageLoader } from "./slot-page.server";
import { SlotWork } from "./slot-work";

export default function SlotPage() {
  const { slot, room } = useLoaderData<typeof slotPageLoader>();
  return (
    <FieldShell>
      <RoomHeader room={room.environment} />
      <SlotWork
        slot={slot}
        procedures={room.procedures}
        revisionPhotos={room.revisionPhotos}
        back={`/campo/limpeza/${slot.id}`}
      />
    </FieldShell>
  );
}
