import { Form, useLocation } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";

import type { DrawerState } from "~/lib/drawer.server";
import type { MenuEntry } from "~/lib/navigation";
import { useHydrated } from "~/lib/use-hydrated";

import { AppLink } from "./app-link";

type ShellProps = {
  user: { nome: string; avatarUrl: string | null; nivelAcesso: string; companyLabel: string };
  menu: MenuEntry[];
  drawer: DrawerState;
  year: number;
  children: ReactNode;
};

const WIDE_QUERY = "(min-width: 1152px)";

/**
 * Drawer + top bar + footer. The drawer toggle is a form (works without JS) that stores the choice in a cookie;
 * with JS it toggles at once and saves in the background. Groups are <details>, open by default.
 *
 * Below 1152 px the drawer is an overlay for one navigation only, whatever the cookie says: without JS 'Abrir menu'
 * comes back to the page at #menu and CSS shows the drawer while it is the :target, so following any link (or the
 * backdrop, a link to #conteudo) closes it; with JS the same is a state reset on every location change. The skip
 * link and the backdrop lead to <main id="conteudo">, which takes the focus.
 */
export function AppShell({ user, menu, drawer, year, children }: ShellProps) {
  const location = useLocation();
  const hydrated = useHydrated();
  const [state, setState] = useState<DrawerState>(drawer);
  const [overlay, setOverlay] = useState(false);
  useEffect(() => setState(drawer), [drawer]);
  // A page opened at #menu (the no-JS toggle, just before hydration) keeps its drawer; any later navigation closes it.
  useEffect(() => setOverlay(window.location.hash === "#menu"), [location.key]);
  useEffect(() => {
    if (!overlay) return;
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && setOverlay(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [overlay]);
  const redirectTo = `${location.pathname}${location.search}`;

  const toggle = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const open = submitter?.getAttribute("value") === "open";
    if (!window.matchMedia(WIDE_QUERY).matches) setOverlay(open);
    setState(open ? "open" : "closed");
    // The pressed button hides and its twin shows: keep the keyboard focus on the toggle.
    const twin = open ? "Fechar menu" : "Abrir menu";
    requestAnimationFrame(() => document.querySelector<HTMLElement>(`.topbar [aria-label="${twin}"]`)?.focus());
    // A plain request, not a fetcher: nothing on the page needs reloading, and a link tapped right after opening
    // the drawer on a phone must not abort it (a fetcher's revalidation then logged an AbortError).
    // The no-JS form's own request: its redirect's Set-Cookie is kept; the redirect itself is not followed.
    const body = new URLSearchParams({ state: open ? "open" : "closed", redirectTo });
    fetch("/preferencias/menu", { method: "POST", body, redirect: "manual" }).catch(() => {});
  };
  const closeOverlay = (event: React.MouseEvent) => {
    event.preventDefault();
    setOverlay(false);
    document.getElementById("conteudo")?.focus();
  };

  return (
    <div className={`shell drawer-${state}${hydrated ? " shell-js" : ""}${overlay ? " overlay-open" : ""}`}>
      <a href="#conteudo" className="skip-link">
        Pular para o conteúdo
      </a>
      <header className="topbar">
        <form method="post" action="/preferencias/menu" onSubmit={toggle} className="drawer-toggle">
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <button type="submit" name="state" value="closed" className="icon-button when-open" aria-label="Fechar menu">
            ☰
          </button>
        </form>
        <form method="post" action="/preferencias/menu" onSubmit={toggle} className="drawer-toggle">
          <input type="hidden" name="redirectTo" value={`${redirectTo}#menu`} />
          <button type="submit" name="state" value="open" className="icon-button when-closed" aria-label="Abrir menu">
            ☰
          </button>
        </form>
        <AppLink href="/dashboard" className="topbar-brand">
          <img src="/logo.svg" alt="" width={28} height={28} /> Limpeza
        </AppLink>
        <div className="profile-menu">
          <AppLink href="/profile" className="profile-link">
            <span className="profile-name">{user.nome}</span>
            <img
              className="avatar"
              src={user.avatarUrl ?? "/avatar-padrao.svg"}
              alt={user.avatarUrl ? `Foto de ${user.nome}` : "Avatar padrão"}
              width={36}
              height={36}
            />
          </AppLink>
          <div className="profile-popover" aria-label="perfil">
            <AppLink href="/profile">Acessar meu perfil</AppLink>
            <p>{user.companyLabel}</p>
            <p className="muted">{user.nivelAcesso}</p>
          </div>
        </div>
      </header>
      <nav className="drawer" id="menu" aria-label="Menu principal" tabIndex={-1}>
        <ul>
          {menu.map((entry) => (
            <li key={entry.label}>
              {entry.to ? (
                <MenuLink to={entry.to} pathname={location.pathname}>
                  {entry.label}
                </MenuLink>
              ) : (
                <details open>
                  <summary>{entry.label}</summary>
                  <ul>
                    {entry.children?.map((child) => (
                      <li key={child.to}>
                        <MenuLink to={child.to} pathname={location.pathname}>
                          {child.label}
                        </MenuLink>
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </li>
          ))}
          <li>
            <Form method="post" action="/logout">
              <button type="submit" className="link-button">
                Sair
              </button>
            </Form>
          </li>
        </ul>
      </nav>
      <a href="#conteudo" className="drawer-backdrop" tabIndex={-1} aria-hidden="true" onClick={closeOverlay}>
        {" "}
      </a>
      <main className="content" id="conteudo" tabIndex={-1}>
        {children}
      </main>
      <footer className="footer">
        © {year} <img src="/logo.svg" alt="" width={16} height={16} /> Limpeza
      </footer>
    </div>
  );
}

/** A menu entry, marked as the current page on its own path and below it (what <NavLink> does). */
function MenuLink({ to, pathname, children }: { to: string; pathname: string; children: ReactNode }) {
  const active = pathname === to || pathname.startsWith(`${to}/`);
  return (
    <AppLink href={to} className={active ? "active" : undefined} aria-current={active ? "page" : undefined}>
      {children}
    </AppLink>
  );
}
