import { Link } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";

/**
 * The agenda calendar (spec 001 §2.5): month title with previous and next, a strip of the month's days, and the chosen
 * day's bookings grouped by the hour they start ('7h'), each card with collaborator, environment, time range and
 * 'Principal' or 'Revisão'. Everything is a link: the month and the day live in the URL, so it works without JS and
 * a view can be shared. Texts and dates come formatted from the loader (no date-fns in the browser).
 *
 * The spec's read mode is what this draws; the write and remove modes of /agendamentos pass `cardAction` (an edit
 * link or a remove form per card) instead of changing the component.
 */
export type CalendarCard = {
  id: number;
  nome: string;
  ambiente: string;
  /** 'HH:mm - HH:mm' */
  horario: string;
  tipo: "Principal" | "Revisão";
  /** The branch, when the page shows every branch of the company; else null. */
  filial: string | null;
};
export type CalendarGroup = { hour: string; cards: CalendarCard[] };
export type CalendarDay = {
  iso: string;
  day: number;
  /** 'qui' */
  weekday: string;
  /** What a screen reader says: 'quinta-feira, 5 de novembro, hoje, 3 agendamentos'. */
  label: string;
  count: number;
  isToday: boolean;
  isSelected: boolean;
  href: string;
};
export type CalendarData = {
  monthTitle: string;
  previous: { href: string; label: string };
  next: { href: string; label: string };
  /** 'Hoje' (today's month and day), or null when today is already the day shown. */
  today: string | null;
  days: CalendarDay[];
  selected: string;
  selectedTitle: string;
  groups: CalendarGroup[];
  emptyText: string;
  /** Said above the cards when the day holds more bookings than are drawn; else null. */
  notice: string | null;
};

export function Calendar({ data, cardAction }: { data: CalendarData; cardAction?: (card: CalendarCard) => ReactNode }) {
  const strip = useRef<HTMLOListElement>(null);
  // With JS the chosen day is scrolled into the strip's view (its own scroll only: the page does not move).
  useEffect(() => {
    const list = strip.current;
    const chosen = list?.querySelector<HTMLElement>("[aria-current]");
    if (!list || !chosen) return;
    list.scrollLeft = chosen.offsetLeft - (list.clientWidth - chosen.offsetWidth) / 2;
  }, [data.selected]);

  return (
    <section className="calendar" aria-labelledby="calendar-month">
      <div className="calendar-month">
        <Link
          to={data.previous.href}
          className="button calendar-nav"
          aria-label={`Mês anterior: ${data.previous.label}`}
          preventScrollReset
        >
          <span aria-hidden="true">‹</span>
        </Link>
        <h2 id="calendar-month">{data.monthTitle}</h2>
        <Link
          to={data.next.href}
          className="button calendar-nav"
          aria-label={`Próximo mês: ${data.next.label}`}
          preventScrollReset
        >
          <span aria-hidden="true">›</span>
        </Link>
      </div>
      <nav aria-label="Dias do mês" className="calendar-strip-wrap">
        <ol className="calendar-strip" ref={strip}>
          {data.days.map((day) => (
            <li key={day.iso}>
              <Link
                to={day.href}
                preventScrollReset
                className={`calendar-day${day.isToday ? " is-today" : ""}${day.count > 0 ? " has-bookings" : ""}`}
                aria-current={day.isSelected ? "date" : undefined}
                aria-label={day.label}
              >
                <span className="calendar-weekday" aria-hidden="true">
                  {day.weekday}
                </span>
                <span className="calendar-daynum" aria-hidden="true">
                  {day.day}
                </span>
                <span className="calendar-dot" aria-hidden="true" />
              </Link>
            </li>
          ))}
        </ol>
      </nav>
      <div className="calendar-day-head">
        <h3 id="calendar-day-title">{data.selectedTitle}</h3>
        {data.today ? (
          <Link to={data.today} className="button" preventScrollReset>
            Hoje
          </Link>
        ) : null}
      </div>
      {data.notice ? (
        <p className="notice" role="status">
          {data.notice}
        </p>
      ) : null}
      {data.groups.length === 0 ? (
        <p className="empty-state">{data.emptyText}</p>
      ) : (
        <div className="calendar-groups">
          {data.groups.map((group) => (
            <section key={group.hour} className="calendar-group" aria-label={`Agendamentos das ${group.hour}`}>
              <h4 className="calendar-hour">{group.hour}</h4>
              <ul className="calendar-cards">
                {group.cards.map((card) => (
                  <li key={card.id} className={`calendar-card${card.tipo === "Revisão" ? " is-revision" : ""}`}>
                    <p className="calendar-card-name">{card.nome}</p>
                    <p className="calendar-card-env">{card.ambiente}</p>
                    <p className="calendar-card-meta">
                      <span className="calendar-card-time">{card.horario}</span>
                      <span className="calendar-card-type">{card.tipo}</span>
                    </p>
                    {card.filial ? <p className="calendar-card-branch muted">{card.filial}</p> : null}
                    {cardAction ? cardAction(card) : null}
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </section>
  );
}
