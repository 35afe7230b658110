import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * The agenda calendar (spec 001 §2.5): month title with previous and next, the chosen day's week (with the week before
 * and after: seven days fit a phone, so nothing scrolls sideways, issue 27), and the chosen
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
  tipo: "Principal" | "Revisão" | "Extra";
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
  /** False for the days of the week that fall in the previous or next month (drawn muted, not counted). */
  inMonth: boolean;
  href: string;
};
export type CalendarData = {
  monthTitle: string;
  previous: { href: string; label: string };
  next: { href: string; label: string };
  /** 'Hoje' (today's month and day), or null when today is already the day shown. */
  today: string | null;
  /** The chosen day's week, Sunday to Saturday. */
  days: CalendarDay[];
  /** '22 a 28 de novembro', and the links to the same weekday a week before and after. */
  week: { title: string; previous: string; next: string };
  selected: string;
  selectedTitle: string;
  groups: CalendarGroup[];
  emptyText: string;
  /** Said above the cards when the day holds more bookings than are drawn; else null. */
  notice: string | null;
};

export function Calendar({ data, cardAction }: { data: CalendarData; cardAction?: (card: CalendarCard) => ReactNode }) {
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
      <nav aria-label="Dias da semana" className="calendar-week">
        <div className="calendar-week-head">
          <Link to={data.week.previous} className="button calendar-nav" aria-label="Semana anterior" preventScrollReset>
            <span aria-hidden="true">‹</span>
          </Link>
          <p className="calendar-week-title">{data.week.title}</p>
          <Link to={data.week.next} className="button calendar-nav" aria-label="Próxima semana" preventScrollReset>
            <span aria-hidden="true">›</span>
          </Link>
        </div>
        <ol className="calendar-strip">
          {data.days.map((day) => (
            <li key={day.iso}>
              <Link
                to={day.href}
                preventScrollReset
                className={`calendar-day${day.isToday ? " is-today" : ""}${day.count > 0 ? " has-bookings" : ""}${day.inMonth ? "" : " is-outside"}`}
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
