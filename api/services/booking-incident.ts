import { sql } from "kysely";

/**
 * The incident a booking `b` answers when it is a corrective cleaning (its agenda's incident_id, issue 28), else
 * null: what types it 'Extra' (`cleaningType` in api/domain/reports.ts). For a query that names the bookings row `b`.
 */
export const bookingIncidentId = sql<number | null>`(select a.incident_id from agendas a where a.id = b.agenda_id)`.as(
  "incident_id",
);
