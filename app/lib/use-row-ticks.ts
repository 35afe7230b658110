import { useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";

/**
 * The tick boxes of a list (STYLE.md 7a), one implementation for every list that has them.
 * - Without JS the boxes are plain inputs of the form `form`, and 'Marcar Todos' is the link `tickAllHref`
 *   (?marcar=todos ticks the page on the server).
 * - Once React runs they are state. On a slow phone they can be ticked before the script has started: the boxes
 *   ticked by then seed the state, so switching to controlled boxes does not untick them.
 * - New list data (a search, a save, a removal: `data` changes) starts over with nothing ticked, or all with
 *   ?marcar=todos.
 */
export function useRowTicks<Key extends string | number>({
  rows,
  data,
  tickAll,
  boxes,
}: {
  /** The keys of the rows on screen. */
  rows: Key[];
  /** The loader's list answer the rows come from. */
  data: unknown;
  tickAll: boolean;
  /** Where the boxes are in the page, and the key a box's value stands for. */
  boxes: { form: string; name: string; key: (value: string) => Key };
}) {
  const location = useLocation();
  const [ticked, setTicked] = useState<Set<Key>>(() => new Set(tickAll ? rows : []));
  const started = useRef(false);
  useEffect(() => {
    if (!started.current) {
      started.current = true;
      const selector = `input[form="${boxes.form}"][name="${boxes.name}"]:checked`;
      const before = Array.from(document.querySelectorAll<HTMLInputElement>(selector), (box) => boxes.key(box.value));
      setTicked(new Set(before));
      return;
    }
    setTicked(new Set(tickAll ? rows : []));
  }, [data, tickAll]); // rows is derived from data

  const allTicked = rows.length > 0 && rows.every((key) => ticked.has(key));
  const search = new URLSearchParams(location.search);
  if (tickAll) search.delete("marcar");
  else search.set("marcar", "todos");
  const query = search.toString();
  return {
    ticked,
    allTicked,
    toggle: (key: Key) =>
      setTicked((current) => {
        const next = new Set(current);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        return next;
      }),
    toggleAll: () => setTicked(allTicked ? new Set() : new Set(rows)),
    tickAllHref: query ? `${location.pathname}?${query}` : location.pathname,
  };
}
