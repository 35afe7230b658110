import { useActionData, useLoaderData } from "@remix-run/react";

import type { RoomPage as RoomPageData } from "../../api/routes/info";

import { avatarThumbUrl } from "~/lib/avatars";
import { useNonce } from "~/lib/nonce";

import type { RoomActionData, roomPageLoader } from "./room-page.server";

/**
 * The public room page: a bare document (root.tsx, handle `document: "bare"`) with no script and its own small
 * stylesheet inline, so a phone that scanned the QR code gets everything in one response (docs/room-page.md).
 */
export const ROOM_CSS = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1d2630;background:#f3f6f8;line-height:1.45}
header{background:#00697a;color:#fff;padding:16px max(16px,calc(50% - 308px))}
header p{margin:0;font-size:.95rem}
h1{margin:2px 0 4px;font-size:1.4rem;line-height:1.2;overflow-wrap:anywhere}
main{max-width:640px;margin:0 auto;padding:12px}
nav{display:flex;gap:6px;margin:0 0 12px}
nav a{flex:1;text-align:center;padding:10px 4px;border:1px solid #00697a;border-radius:8px;color:#004d59;background:#fff;text-decoration:none;font-weight:600;font-size:.9rem}
nav a[aria-current]{background:#004d59;color:#fff}
a:focus-visible{outline:3px solid #0b5cad;outline-offset:2px}
a.inspect{display:block;text-align:center;padding:12px;margin:0 0 12px;border-radius:8px;background:#004d59;color:#fff;font-weight:600;text-decoration:none}
a.staff{display:block;text-align:center;padding:12px;margin:16px 0 0;border:1px solid #00697a;border-radius:8px;color:#004d59;background:#fff;font-weight:600;text-decoration:none}
ul{list-style:none;margin:0;padding:0}
li{display:flex;gap:12px;background:#fff;border:1px solid #d6dde4;border-left:6px solid #3399ff;border-radius:8px;padding:12px;margin:0 0 10px}
li.done{border-left-color:#00884a}
li.inProgress{border-left-color:#ffd700}
li.late{border-left-color:#b3261e}
h2{font-size:1rem;margin:4px 0 8px}
.tag.late{background:#fbe9e7;color:#b3261e;font-weight:700}
.photo{flex:none;width:48px;height:48px;border-radius:50%;object-fit:cover;background:#d6dde4;color:#004d59;display:flex;align-items:center;justify-content:center;font-weight:700}
.name{margin:0;font-weight:700;overflow-wrap:anywhere}
.tags{margin:2px 0 4px}
.tag{display:inline-block;font-size:.8rem;padding:1px 8px;border-radius:999px;background:#e4eef0;color:#004d59;margin-right:4px}
.tag.extra{background:#fff1e0;color:#8a4b00;font-weight:700}
dl{margin:0;font-size:.95rem}
dl div{display:flex;gap:6px;flex-wrap:wrap}
dt{color:#5b6775}
dd{margin:0;font-weight:600}
.empty{background:#fff;border:1px solid #d6dde4;border-radius:8px;padding:24px;text-align:center;color:#5b6775}
.incident{background:#fff4e5;border:1px solid #e0a050;border-radius:8px;padding:10px 12px;margin:0 0 12px;font-weight:600;color:#6b3a00}
.visitor{background:#fff;border:1px solid #d6dde4;border-radius:8px;padding:12px;margin:16px 0 0}
.visitor h2{margin:0 0 4px}
.visitor p{margin:0 0 8px}
.faces{display:grid;grid-template-columns:repeat(5,1fr);gap:6px}
.faces button{display:flex;flex-direction:column;align-items:center;gap:2px;padding:8px 2px;border:1px solid #d6dde4;border-radius:8px;background:#f8fafb;font:inherit;font-size:.72rem;color:#1d2630;cursor:pointer}
summary{cursor:pointer;font-weight:700;font-size:1rem;padding:4px 0;color:#004d59}
fieldset{border:0;margin:8px 0;padding:0}
legend{font-weight:600;margin-bottom:4px}
.kind{display:flex;gap:8px;align-items:center;padding:6px 0}
.kind input{width:20px;height:20px}
label.block{display:block;font-weight:600;margin:10px 0 4px}
textarea,input[type=file]{width:100%;font:inherit}
textarea{min-height:80px;padding:8px;border:1px solid #b8c3cc;border-radius:8px}
.send{display:block;text-align:center;text-decoration:none;margin-top:12px;width:100%;padding:12px;border:0;border-radius:8px;background:#00697a;color:#fff;font:inherit;font-weight:700;cursor:pointer}
.error{color:#b3261e;font-weight:600}
.hp{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);opacity:0}
.note{font-size:.85rem;color:#5b6775}
button:focus-visible,summary:focus-visible,input:focus-visible,textarea:focus-visible{outline:3px solid #0b5cad;outline-offset:2px}
`;

function initials(name: string) {
  const words = name.trim().split(/\s+/);
  return ((words[0]?.[0] ?? "") + (words.length > 1 ? (words.at(-1)?.[0] ?? "") : "")).toUpperCase();
}

type Card = RoomPageData["cards"][number] & { late: boolean };
type Texts = ReturnType<typeof useLoaderData<typeof roomPageLoader>>["texts"];
type FoundPage = Extract<ReturnType<typeof useLoaderData<typeof roomPageLoader>>, { found: true }>;

/** A face drawn, not an emoji: cheap phones' fonts lack some (🙁 and 🙂 showed as boxes). Frown to smile, red to green. */
const FACES = {
  1: { mouth: "M7 18Q12 12 17 18", color: "#ef9a9a" },
  2: { mouth: "M7 17Q12 14 17 17", color: "#ffcc80" },
  3: { mouth: "M7 16H17", color: "#fff59d" },
  4: { mouth: "M7 15Q12 18 17 15", color: "#c5e1a5" },
  5: { mouth: "M7 14Q12 20 17 14", color: "#a5d6a7" },
} as const;

function Face({ value }: { value: keyof typeof FACES }) {
  return (
    <svg viewBox="0 0 24 24" width="32" height="32" aria-hidden="true">
      <circle cx="12" cy="12" r="11" fill={FACES[value].color} stroke="#1d2630" />
      <circle cx="8.5" cy="9.5" r="1.4" fill="#1d2630" />
      <circle cx="15.5" cy="9.5" r="1.4" fill="#1d2630" />
      <path d={FACES[value].mouth} fill="none" stroke="#1d2630" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}

/** A field people never see nor reach: robots fill it (issue 28 §2). */
function Honeypot() {
  return (
    <div className="hp" aria-hidden="true">
      <label>
        Deixe em branco <input type="text" name="site" tabIndex={-1} autoComplete="off" />
      </label>
    </div>
  );
}

/**
 * 'Avaliar limpeza' (five faces, one tap) and 'Relatar problema' (folded; kinds, text, photo): plain forms posted to
 * this page (room-page.server.ts roomPageAction), no script.
 */
function VisitorForms({ page, answer }: { page: FoundPage; answer: RoomActionData | undefined }) {
  const T = page.incidentTexts;
  // The page's own URL without the view: a post there also clears the browser's copy of the page.
  const action = `/info/ambiente/${page.environment.id}`;
  const error = (intent: RoomActionData["intent"]) =>
    answer && answer.intent === intent && !answer.tooMany ? (
      <p className="error" role="alert">
        {answer.message}
      </p>
    ) : null;
  return (
    <>
      <section className="visitor" aria-labelledby="avaliar">
        <h2 id="avaliar">{T.rateTitle}</h2>
        <p>{T.rateQuestion}</p>
        {error("avaliar")}
        <form method="post" action={action}>
          <input type="hidden" name="intent" value="avaliar" />
          <input type="hidden" name="formToken" value={page.formToken} />
          <Honeypot />
          <div className="faces">
            {page.ratings.map((rating) => (
              <button key={rating.value} type="submit" name="nota" value={rating.value}>
                <Face value={rating.value} />
                {rating.label}
              </button>
            ))}
          </div>
        </form>
      </section>
      {page.kinds.length ? (
        <details className="visitor" open={answer?.intent === "relatar" && !answer.tooMany}>
          <summary>{T.reportTitle}</summary>
          {error("relatar")}
          <form method="post" action={action} encType="multipart/form-data">
            <input type="hidden" name="intent" value="relatar" />
            <input type="hidden" name="formToken" value={page.formToken} />
            <Honeypot />
            <fieldset>
              <legend>{T.reportKind}</legend>
              {page.kinds.map((kind) => (
                <label key={kind.id} className="kind">
                  <input type="radio" name="tipo" value={kind.id} required />
                  {kind.nome}
                </label>
              ))}
            </fieldset>
            <label className="block" htmlFor="descricao">
              {T.reportDescription}
            </label>
            <textarea id="descricao" name="descricao" maxLength={500} />
            <label className="block" htmlFor="foto">
              {T.reportPhoto}
            </label>
            <input id="foto" name="foto" type="file" accept="image/jpeg,image/png,image/gif,image/webp" />
            <button type="submit" className="send">
              {T.reportSend}
            </button>
            <p className="note">{T.noPersonalData}</p>
          </form>
        </details>
      ) : null}
    </>
  );
}

function CleaningCard({ card, texts: ROOM_TEXTS }: { card: Card; texts: Texts }) {
  return (
    <li className={card.late ? "late" : card.state}>
      {card.photo ? (
        <img
          className="photo"
          src={avatarThumbUrl(card.photo)}
          width={48}
          height={48}
          alt=""
          loading="lazy"
          decoding="async"
        />
      ) : (
        <span className="photo" aria-hidden="true">
          {initials(card.employeeName)}
        </span>
      )}
      <div>
        <p className="name">{card.employeeName}</p>
        <p className="tags">
          <span className="tag">{card.type}</span>
          {card.extra ? <span className="tag extra">{ROOM_TEXTS.extra}</span> : null}
          {card.late ? <span className="tag late">{ROOM_TEXTS.late}</span> : null}
        </p>
        <dl>
          {card.scheduled ? (
            <div>
              <dt>{ROOM_TEXTS.scheduled}:</dt>
              <dd>
                {card.scheduled.horaIni} - {card.scheduled.horaFim}
              </dd>
            </div>
          ) : null}
          {card.performed ? (
            <div>
              <dt>{card.state === "inProgress" ? `${ROOM_TEXTS.inProgress}, desde` : `${ROOM_TEXTS.performed}:`}</dt>
              <dd>
                {card.state === "inProgress"
                  ? card.performed.start
                  : `${card.performed.start ?? "--:--"} - ${card.performed.end ?? "--:--"}`}
              </dd>
            </div>
          ) : null}
        </dl>
      </div>
    </li>
  );
}

export default function RoomPage() {
  const page = useLoaderData<typeof roomPageLoader>();
  const answer = useActionData<RoomActionData>();
  const ROOM_TEXTS = page.texts;
  const nonce = useNonce();
  const style = <style nonce={nonce} dangerouslySetInnerHTML={{ __html: ROOM_CSS }} />;
  if (!page.found)
    return (
      <>
        {style}
        <header>
          <h1>{ROOM_TEXTS.notFoundTitle}</h1>
        </header>
        <main>
          <p className="empty">{ROOM_TEXTS.notFound}</p>
        </main>
      </>
    );
  // 'Próximas Limpezas' lists the late hours apart, first; the other views keep the day's order, each late one tagged.
  const late = page.view === "proximas" ? page.cards.filter((card) => card.late) : [];
  const shown = page.view === "proximas" ? page.cards.filter((card) => !card.late) : page.cards;
  return (
    <>
      {style}
      <header>
        <p>{page.environment.empresa}</p>
        <h1>{page.environment.name}</h1>
        <p>
          <time dateTime={page.date}>{page.dateText}</time>
        </p>
      </header>
      <main>
        {answer?.tooMany ? (
          <section className="incident" role="alert" aria-labelledby="muitos">
            <h2 id="muitos">{page.incidentTexts.tooManyTitle}</h2>
            <p>{answer.message}</p>
          </section>
        ) : null}
        {page.inspectHref ? (
          <a className="inspect" href={page.inspectHref}>
            {page.inspectText}
          </a>
        ) : null}
        {page.openIncident ? (
          <p className="incident" role="status">
            {page.openIncident.text}
          </p>
        ) : null}
        <nav aria-label="Limpezas do dia">
          {page.views.map((view) => (
            <a key={view.view} href={view.href} aria-current={view.view === page.view ? "page" : undefined}>
              {view.label}
            </a>
          ))}
        </nav>
        {late.length ? (
          <section aria-labelledby="late">
            <h2 id="late">{ROOM_TEXTS.lateTitle}</h2>
            <ul aria-label={ROOM_TEXTS.lateTitle}>
              {late.map((card, index) => (
                <CleaningCard key={index} card={card} texts={ROOM_TEXTS} />
              ))}
            </ul>
            {shown.length ? <h2>{page.viewLabel}</h2> : null}
          </section>
        ) : null}
        {shown.length ? (
          <ul aria-label={page.viewLabel}>
            {shown.map((card, index) => (
              <CleaningCard key={index} card={card} texts={ROOM_TEXTS} />
            ))}
          </ul>
        ) : late.length ? null : (
          <p className="empty">{ROOM_TEXTS.empty}</p>
        )}
        <VisitorForms page={page} answer={answer} />
        <a className="staff" href={page.fieldHref}>
          {page.fieldText}
        </a>
      </main>
    </>
  );
}
