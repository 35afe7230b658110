import type { AnchorHTMLAttributes } from "react";

/**
 * An in-app link rendered as a plain <a>, for links drawn many times per page (list rows, the menu): root.tsx's
 * one click handler navigates client-side (app/lib/link-navigation.ts), and `data-discover` lets Remix discover
 * the route ahead, as for a <Link>. Elsewhere Remix's <Link> is the default.
 */
export function AppLink(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  return <a {...props} data-discover="true" />;
}
