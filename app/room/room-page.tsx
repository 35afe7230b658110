import { useLoaderData } from "@remix-run/react";

import type { RoomPage as RoomPageData } from "../../api/routes/info";

import { avatarThumbUrl } from "~/lib/avatars";
import { useNonce } from "~/lib/nonce";

import type { roomPageLoader } from "./room-page.server";

/**
 * The public room page: a bare document (root.tsx, handle `document: "bare"`) with no script and its own small
 * stylesheet inline, so a phone that scanned the QR code gets everything in one response (docs/room-page.md).
 */
const CSS = `
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
`;

function initials(name: string) {
  const words = name.trim().split(/\s+/);
  return ((words[0]?.[0] ?? "") + (words.length > 1 ? (words.at(-1)?.[0] ?? "") : "")).toUpperCase();
}

type Card = RoomPageData["cards"][number] & { late: boolean };
type Texts = ReturnType<typeof useLoaderData<typeof roomPageLoader>>["texts"];

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
  const ROOM_TEXTS = page.texts;
  const nonce = useNonce();
  const style = <style nonce={nonce} dangerouslySetInnerHTML={{ __html: CSS }} />;
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
        <nav aria-label="Limpezas do dia">
          {page.views.map((view) => (
            <a key={view.view} href={`?ver=${view.view}`} aria-current={view.view === page.view ? "page" : undefined}>
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
      </main>
    </>
  );
}
