/**
 * How many rows one answer may hold (issue 22 item 3; docs/security.md 'Limits'): the API refuses more, and the pages
 * say when they show fewer than there are. Browser-safe (the list pager reads it).
 * - MAX_PAGE_ROWS: one page of any list ('Todos' is the first MAX_PAGE_ROWS rows).
 * - MAX_BOOKING_ROWS: one answer of the bookings and history lists, whose rows carry their history (the spec's 'agenda
 *   page by 500'): on the embedded database one such query holds the server's thread, and 500 rows keep it under
 *   ~60 ms (docs/performance.md); the board's cards per column, the calendar's cards of a day.
 * - MAX_UNPAGED_ROWS: an unpaged answer of a choice list (catalogues, rooms, users, branches: small rows the original
 *   client loads whole into a select).
 */
export const MAX_PAGE_ROWS = 1000;
export const MAX_BOOKING_ROWS = 500;
export const MAX_UNPAGED_ROWS = 5000;

/**
 * The longest search text (`q`) and sort name (`sort`) a list query takes: the API refuses longer ones (400) and the
 * web pages read a longer value of their URL as none (app/lib/list-params.ts).
 */
export const MAX_SEARCH_LENGTH = 200;
export const MAX_SORT_LENGTH = 40;

/** Days an unpaged bookings or history list may span (it answers at most MAX_BOOKING_ROWS rows as well). */
export const MAX_UNPAGED_DAYS = 400;

/** Days the bookings' summary counts at once (ours): a calendar month, the board's longest period. */
export const MAX_SUMMARY_DAYS = 31;
