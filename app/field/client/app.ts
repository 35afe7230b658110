/**
 * The field pages' only script (docs/field-app.md 'Offline'), loaded after the page: it never renders a page, the
 * server does. It registers the service worker, takes each step form into the phone's queue (instant, photo shrunk,
 * key), shows the step at once, sends the queue, and then brings in the server's page without a full load.
 */
import { enqueue, flush, forgetRefused, pending, refused, type QueuedStep } from "./queue";

const PHOTO_MAX_SIDE = 1600;

/** A camera photo shrunk on the phone (a 12 MP picture costs a data plan several MB); the server re-encodes it again. */
async function shrink(file: File): Promise<Blob> {
  try {
    const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
    const scale = Math.min(1, PHOTO_MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext("2d")?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return await new Promise((resolve) => canvas.toBlob((blob) => resolve(blob ?? file), "image/jpeg", 0.8));
  } catch {
    return file; // a format the phone cannot draw: sent as it is, the server decides
  }
}

type Phase = "todo" | "started" | "closed";
const STATE_TEXT: Record<Phase, string> = { todo: "A fazer", started: "Em andamento", closed: "Concluída" };

function setPhase(section: HTMLElement, phase: Phase) {
  section.dataset.fase = phase;
  for (const part of section.querySelectorAll<HTMLElement>("[data-quando]"))
    part.hidden = !(part.dataset.quando ?? "").split(" ").includes(phase);
  for (const item of section.querySelectorAll<HTMLElement>("[data-procedimento]"))
    markProcedure(item, item.classList.contains("done"), phase);
}

function markProcedure(item: HTMLElement, done: boolean, phase: Phase) {
  item.classList.toggle("done", done);
  const tick = item.querySelector<HTMLButtonElement>("button.tick");
  if (tick) tick.disabled = done || phase !== "started";
  const details = item.querySelector<HTMLElement>("details");
  if (details) details.hidden = done || phase !== "started";
}

/** Shows a step that waits on the phone as if it were done, on this page's slot and in the day's lists. */
function show(step: QueuedStep) {
  const phase: Phase | null =
    step.step === "start" ? "started" : step.step === "finish" || step.step === "incomplete" ? "closed" : null;
  const waiting = " · aguardando envio";
  for (const link of document.querySelectorAll<HTMLElement>(`[data-slot="${step.bookingId}"] [data-estado]`))
    if (phase) link.textContent = STATE_TEXT[phase] + waiting;
  const section = document.querySelector<HTMLElement>(`[data-limpeza="${step.bookingId}"]`);
  if (!section) return;
  if (phase) {
    setPhase(section, phase);
    const state = section.querySelector<HTMLElement>("[data-estado]");
    if (state) state.textContent = (step.step === "incomplete" ? "Não concluída" : STATE_TEXT[phase]) + waiting;
  }
  const current = (section.dataset.fase ?? "todo") as Phase;
  for (const item of section.querySelectorAll<HTMLElement>("[data-procedimento]")) {
    if (step.step === "remaining" || Number(item.dataset.procedimento) === step.procedureId)
      markProcedure(item, true, current);
  }
}

async function showQueue() {
  const waiting = await pending();
  waiting.forEach(show);
  const line = document.querySelector<HTMLElement>("[data-pendentes]");
  if (line) {
    line.hidden = waiting.length === 0;
    line.textContent =
      waiting.length === 1 ? "1 registro aguardando envio" : `${waiting.length} registros aguardando envio`;
  }
  const refusals = await refused();
  const box = document.querySelector<HTMLElement>("[data-recusados]");
  if (box) {
    box.hidden = refusals.length === 0;
    box.replaceChildren();
    if (refusals.length) {
      const title = document.createElement("p");
      title.textContent = "Registros não aceitos pelo servidor:";
      const list = document.createElement("ul");
      for (const step of refusals) {
        const item = document.createElement("li");
        item.textContent = `${new Date(step.at).toLocaleString("pt-BR")}: ${step.message}`;
        list.append(item);
      }
      const ok = document.createElement("button");
      ok.type = "button";
      ok.textContent = "Entendi";
      ok.addEventListener("click", () => void forgetRefused().then(showQueue));
      box.append(title, list, ok);
    }
  }
}

/**
 * Counts what the cleaner did on this page (a step taken, a note typed, a photo chosen, 'Nota e foto' opened): a page
 * asked for before the latest of them would undo it on screen, so it is not put in place.
 */
let changes = 0;
for (const type of ["submit", "input", "change", "toggle"]) document.addEventListener(type, () => (changes += 1), true);

/** The server's page in place of this one's main part, without a full load (the queue is empty by then). */
async function refresh() {
  const asked = changes;
  try {
    const response = await fetch(location.href, { credentials: "same-origin", headers: { accept: "text/html" } });
    if (!response.ok || response.redirected) return;
    const html = await response.text();
    // The next step's send brings a page that has everything; until then the page keeps what it shows.
    if (asked !== changes) return;
    const page = new DOMParser().parseFromString(html, "text/html");
    const main = page.querySelector("main");
    if (main) document.querySelector("main")?.replaceWith(main);
    document.title = page.title;
  } catch {
    // offline again: the page keeps what it shows
  }
}

async function send() {
  const result = await flush();
  if (result === "offline") {
    const registration = await navigator.serviceWorker?.ready.catch(() => null);
    // Background Sync where the browser has it; otherwise the 'online' event and the next page open.
    await (registration as { sync?: { register(tag: string): Promise<void> } } | null)?.sync
      ?.register("campo-fila")
      .catch(() => {});
  } else if (result === "signin") {
    const line = document.querySelector<HTMLElement>("[data-pendentes]");
    if (line) {
      line.hidden = false;
      line.innerHTML = "";
      const link = document.createElement("a");
      link.href = `/campo/entrar?voltar=${encodeURIComponent(location.pathname + location.search)}`;
      link.textContent = "Sua sessão terminou: entre novamente para enviar os registros guardados.";
      line.append(link);
      return;
    }
  } else {
    await refresh();
  }
  await showQueue();
}

/** A record's key: crypto.randomUUID exists only on HTTPS and localhost, getRandomValues everywhere (a LAN demo). */
function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The steps taken so far: each is queued after the one before, in the order tapped, however long a photo takes. */
let taking = Promise.resolve();

/** A step as tapped: its fields and instant read at once; its photo shrunk, then queued after the earlier steps. */
function take(form: HTMLFormElement, submitter: HTMLElement | null) {
  const fields = new FormData(form, submitter);
  const at = new Date().toISOString();
  fields.set("feitoEm", at);
  const section = form.closest<HTMLElement>("[data-limpeza]");
  const procedure = fields.get("procedureId");
  const photo = fields.get("photo");
  const entries: [string, string | Blob][] = [];
  for (const [name, value] of fields) if (name !== "photo") entries.push([name, value as string]);
  const shrunk = photo instanceof File && photo.size > 0 ? shrink(photo) : null;
  taking = taking
    .catch(() => undefined)
    .then(async () => {
      if (shrunk) entries.push(["photo", await shrunk]);
      const step: QueuedStep = {
        key: newKey(),
        bookingId: Number(section?.dataset.limpeza),
        step: form.dataset.fila ?? "",
        procedureId: procedure ? Number(procedure) : undefined,
        fields: entries,
        at,
      };
      await enqueue(step);
      show(step);
      void send();
    });
}

document.addEventListener("submit", (event) => {
  const form = event.target as HTMLFormElement;
  if (!form.dataset.fila || !form.closest("[data-limpeza]")) return;
  event.preventDefault();
  take(form, event.submitter);
});

/** The pages of the day, kept by the service worker for a basement without signal. */
function keepPages() {
  const urls = [location.pathname + location.search];
  for (const link of document.querySelectorAll<HTMLAnchorElement>("a[data-guardar]")) urls.push(link.pathname);
  for (const sheet of document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')) urls.push(sheet.href);
  void navigator.serviceWorker?.ready.then((registration) => registration.active?.postMessage({ guardar: urls }));
}

if ("serviceWorker" in navigator) void navigator.serviceWorker.register("/campo-sw.js", { scope: "/campo" });
window.addEventListener("online", () => void send());
void showQueue().then(async () => {
  if ((await pending()).length && navigator.onLine) await send();
});
keepPages();
