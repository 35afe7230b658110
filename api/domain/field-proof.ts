/**
 * The proof flags managers see on a slot recorded by the field app (docs/field-app.md 'Proof flags'): whether it was
 * started from the room's QR code, whether it reached the server late, and the received instants beside the phone's.
 * Pure and browser-safe: the reports, their Excel file and the board's detail say them in the same words.
 *
 * The columns are written by the execution API (migration 019): `iniciada_via_qr` true or false for a slot started
 * through it, null before the field app (the demo simulator's older rows, the old system's import), and
 * `envio_atraso_s` set only when a record of the slot waited on the phone past the late-send threshold.
 */

export const PROOF_TEXTS = {
  noQr: "Sem leitura do QR",
  late: "Enviado com atraso",
  /** The collaborators report's filters (GET form, `semQr=1`, `atraso=1`). */
  filterLegend: "Registros do aplicativo",
} as const;

/** A received instant shown beside the done one only from this difference up (a phone's send takes a second or two). */
export const RECEIVED_SHOWN_FROM_MS = 60_000;

/** '45 min', '2 h', '2 h 15 min', '1 dia e 3 h', '3 dias'; at least '1 min'. */
export function delayText(seconds: number) {
  const minutes = Math.max(1, Math.floor(seconds / 60));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) {
    const dayText = `${days} ${days === 1 ? "dia" : "dias"}`;
    return hours > 0 ? `${dayText} e ${hours} h` : dayText;
  }
  if (hours > 0) return rest > 0 ? `${hours} h ${rest} min` : `${hours} h`;
  return `${rest} min`;
}

/** 'Enviado com atraso (2 h 15 min após a execução)' for a late slot; null when it was not late or not recorded so. */
export function lateSendText(envioAtrasoS: number | null | undefined) {
  if (envioAtrasoS === null || envioAtrasoS === undefined || envioAtrasoS <= 0) return null;
  return `${PROOF_TEXTS.late} (${delayText(envioAtrasoS)} após a execução)`;
}

/** 'Sem leitura do QR' only for a slot the field app started without the room's current value (false, not null). */
export function noQrText(viaQr: boolean | null | undefined) {
  return viaQr === false ? PROOF_TEXTS.noQr : null;
}

/** The slot's flags in the order they are shown; empty for a slot with nothing to say. */
export function proofFlags(slot: { viaQr: boolean | null | undefined; envioAtrasoS: number | null | undefined }) {
  return [noQrText(slot.viaQr), lateSendText(slot.envioAtrasoS)].filter((flag): flag is string => flag !== null);
}

type Instant = string | Date | null | undefined;
const msOf = (value: Instant) =>
  value === null || value === undefined ? null : (value instanceof Date ? value : new Date(value)).getTime();

/** The received instant when it is worth showing beside the done one (a minute or more apart), else null. */
export function receivedIfDiffers<T extends Instant>(done: Instant, received: T): T | null {
  const [doneMs, receivedMs] = [msOf(done), msOf(received)];
  if (doneMs === null || receivedMs === null || Number.isNaN(doneMs) || Number.isNaN(receivedMs)) return null;
  return Math.abs(receivedMs - doneMs) >= RECEIVED_SHOWN_FROM_MS ? received : null;
}
