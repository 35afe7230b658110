import { useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";

import { useHydrated } from "~/lib/use-hydrated";

import { AppLink } from "./app-link";

/**
 * The tick boxes of a list (STYLE.md 7a), one implementation for every list that has them: the state and the
 * DataList `tick` column ('Marcar Todos' / 'Desmarcar Todos' and a box per row).
 * - Without JS the boxes are plain inputs of the form `form`, and 'Marcar Todos' is a link (?marcar=todos ticks the
 *   page on the server).
 * - Once React runs they are state. On a slow phone they can be ticked before the script has started: the boxes
 *   ticked by then seed the state, so switching to controlled boxes does not untick them.
 * - New list data (a search, a save, a removal: `data` changes) starts over with nothing ticked, or all with
 *   ?marcar=todos.
 */
export function useRowTicks<Row, Key extends string | number>({
  rows,
  data,
  tickAll,
  boxes,
}: {
  rows: Row[];
  /** The loader's list answer the rows come from. */
  data: unknown;
  tickAll: boolean;
  /** The boxes' form and name, the key a row (and a box's value) stands for, and the box's accessible name. */
  boxes: {
    form: string;
    name: string;
    key: (row: Row) => Key;
    parse: (value: string) => Key;
    label: (row: Row) => string;
  };
}) {
  const location = useLocation();
  const hydrated = useHydrated();
  const keys = rows.map(boxes.key);
  const [ticked, setTicked] = useState<Set<Key>>(() => new Set(tickAll ? keys : []));
  const started = useRef(false);
  useEffect(() => {
    if (!started.current) {
      started.current = true;
      const selector = `input[form="${boxes.form}"][name="${boxes.name}"]:checked`;
      const before = Array.from(document.querySelectorAll<HTMLInputElement>(selector), (box) => boxes.parse(box.value));
      setTicked(new Set(before));
      return;
    }
    setTicked(new Set(tickAll ? keys : []));
  }, [data, tickAll]); // keys are derived from data

  const allTicked = keys.length > 0 && keys.every((key) => ticked.has(key));
  const toggle = (key: Key) =>
    setTicked((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const search = new URLSearchParams(location.search);
  if (tickAll) search.delete("marcar");
  else search.set("marcar", "todos");
  const query = search.toString();
  const tickAllHref = query ? `${location.pathname}?${query}` : location.pathname;

  const column = {
    header: hydrated ? (
      <button type="button" className="link-button" onClick={() => setTicked(new Set(allTicked ? [] : keys))}>
        {allTicked ? "Desmarcar Todos" : "Marcar Todos"}
      </button>
    ) : (
      <AppLink href={tickAllHref}>{tickAll ? "Desmarcar Todos" : "Marcar Todos"}</AppLink>
    ),
    cell: (row: Row) => {
      const key = boxes.key(row);
      return (
        <input
          type="checkbox"
          name={boxes.name}
          value={key}
          form={boxes.form}
          aria-label={boxes.label(row)}
          checked={hydrated ? ticked.has(key) : undefined}
          defaultChecked={hydrated ? undefined : tickAll}
          onChange={() => toggle(key)}
        />
      );
    },
  };
  return { ticked, column };
}
