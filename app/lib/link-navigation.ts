import { useNavigate } from "@remix-run/react";
import { useCallback } from "react";

/**
 * One click handler for the whole document (root.tsx's <body>) that navigates client-side for plain in-app links,
 * `<a data-discover>` (app/components/app-link.tsx). Remix's <Link> resolves its path three times per render
 * (about 17 µs each on the server): a list page's 40 row links and the menu's 16 cost more than the rest of the
 * table. The links stay ordinary links without JS, before hydration, with a modifier key, a middle click, a
 * `target` or `download`, and when a handler of their own (a row's modal) called preventDefault first.
 */
export function useLinkNavigation() {
  const navigate = useNavigate();
  return useCallback(
    (event: React.MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      const link = (event.target as Element).closest?.("a[data-discover]");
      if (!(link instanceof HTMLAnchorElement) || link.hasAttribute("download")) return;
      if (link.target && link.target !== "_self") return;
      const url = new URL(link.href);
      if (url.origin !== window.location.origin) return;
      event.preventDefault();
      const to = `${url.pathname}${url.search}${url.hash}`;
      const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
      // As <Link> does: following a link to the page itself replaces the history entry.
      navigate(to, { replace: to === here });
    },
    [navigate],
  );
}
