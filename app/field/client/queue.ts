/**
 * The phone's queue of steps (docs/field-app.md 'Offline'): every step a field page takes with JS is kept here
 * first, in IndexedDB, with the instant it was done and its photo, then sent in the order it was taken. The page and
 * the service worker (Background Sync) both send it; each record carries its Idempotency-Key, so a record sent twice
 * (a lost answer, both senders at once) is recorded once.
 */
import { createStore, del, entries, set } from "idb-keyval";

export type QueuedStep = {
  /** The Idempotency-Key, also the record's name. */
  key: string;
  bookingId: number;
  step: string;
  procedureId?: number;
  /** The form's fields as posted (a photo as its Blob). */
  fields: [string, string | Blob][];
  /** When the cleaner did it (the phone's clock). */
  at: string;
};
export type RefusedStep = QueuedStep & { message: string };

const queueStore = () => createStore("campo-fila", "registros");
const refusedStore = () => createStore("campo-recusados", "registros");

/** Records sort by the time they were taken: a zero-padded clock reading, then the key. */
const orderKey = (step: QueuedStep) => `${String(Date.parse(step.at)).padStart(15, "0")}-${step.key}`;

export async function enqueue(step: QueuedStep) {
  await set(orderKey(step), step, queueStore());
}

export async function pending(): Promise<QueuedStep[]> {
  return (await entries<string, QueuedStep>(queueStore())).map(([, step]) => step);
}

export async function refused(): Promise<RefusedStep[]> {
  return (await entries<string, RefusedStep>(refusedStore())).map(([, step]) => step);
}

export async function forgetRefused() {
  for (const [name] of await entries(refusedStore())) await del(name, refusedStore());
}

/** 'sent': nothing left; 'offline': a send failed or the server asked to retry later; 'signin': the session ended. */
export type FlushResult = "sent" | "offline" | "signin";

function formOf(step: QueuedStep) {
  const form = new FormData();
  for (const [name, value] of step.fields) {
    if (typeof value === "string") form.append(name, value);
    else form.append(name, value, "foto.jpg");
  }
  return form;
}

let last: Promise<FlushResult> = Promise.resolve("sent");

/**
 * Sends what waits, oldest first, one at a time; stops at the first that cannot go now (later ones depend on it).
 * Calls run one after another, each over the queue as it is when it starts: a step taken while a send is under way
 * is sent by the run its own call starts.
 */
export function flush(): Promise<FlushResult> {
  last = last.catch((): FlushResult => "offline").then(lockedSend);
  return last;
}

type Locks = { request(name: string, run: () => Promise<FlushResult>): Promise<FlushResult> };

/** The page and the service worker take turns (Web Locks, where the browser has them): one sender at a time. */
function lockedSend(): Promise<FlushResult> {
  const locks = (navigator as unknown as { locks?: Locks }).locks;
  return locks ? locks.request("campo-fila", sendAll) : sendAll();
}

async function sendAll(): Promise<FlushResult> {
  for (const [name, step] of await entries<string, QueuedStep>(queueStore())) {
    let response: Response;
    try {
      response = await fetch(`/campo/fila/${step.bookingId}`, {
        method: "POST",
        body: formOf(step),
        headers: { "idempotency-key": step.key },
        credentials: "same-origin",
      });
    } catch {
      return "offline";
    }
    if (response.status === 401) return "signin";
    // A server error, or an answer that asks to come back (the same key still being answered, a rate limit).
    if (response.status >= 500 || response.headers.has("retry-after")) return "offline";
    if (!response.ok) {
      const answer = (await response.json().catch(() => ({}))) as { message?: string };
      await set(name, { ...step, message: answer.message ?? "Registro recusado." }, refusedStore());
    }
    await del(name, queueStore());
  }
  return "sent";
}
