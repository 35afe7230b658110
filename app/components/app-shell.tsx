import { Form, Link, NavLink, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";

import type { DrawerState } from "~/lib/drawer.server";
import type { MenuEntry } from "~/lib/navigation";

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
 */
export function AppShell({ user, menu, drawer, year, children }: ShellProps) {
  const location = useLocation();
  const fetcher = useFetcher();
  const [state, setState] = useState<DrawerState>(drawer);
  useEffect(() => setState(drawer), [drawer]);
  const redirectTo = `${location.pathname}${location.search}`;

  const toggle = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const open = state === "auto" ? !window.matchMedia(WIDE_QUERY).matches : state === "closed";
    setState(open ? "open" : "closed");
    fetcher.submit({ state: open ? "open" : "closed" }, { method: "post", action: "/preferencias/menu" });
  };

  return (
    <div className={`shell drawer-${state}`}>
      <header className="topbar">
        <form method="post" action="/preferencias/menu" onSubmit={toggle} className="drawer-toggle">
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <button type="submit" name="state" value="closed" className="icon-button when-open" aria-label="Fechar menu">
            ☰
          </button>
          <button type="submit" name="state" value="open" className="icon-button when-closed" aria-label="Abrir menu">
            ☰
          </button>
        </form>
        <Link to="/dashboard" className="topbar-brand">
          <img src="/logo.svg" alt="" width={28} height={28} /> Limpeza
        </Link>
        <div className="profile-menu">
          <Link to="/profile" className="profile-link">
            <span className="profile-name">{user.nome}</span>
            <img
              className="avatar"
              src={user.avatarUrl ?? "/avatar-padrao.svg"}
              alt={user.avatarUrl ? `Foto de ${user.nome}` : "Avatar padrão"}
              width={36}
              height={36}
            />
          </Link>
          <div className="profile-popover" aria-label="perfil">
            <Link to="/profile">Acessar meu perfil</Link>
            <p>{user.companyLabel}</p>
            <p className="muted">{user.nivelAcesso}</p>
          </div>
        </div>
      </header>
      <nav className="drawer" aria-label="Menu principal">
        <ul>
          {menu.map((entry) => (
            <li key={entry.label}>
              {entry.to ? (
                <NavLink to={entry.to}>{entry.label}</NavLink>
              ) : (
                <details open>
                  <summary>{entry.label}</summary>
                  <ul>
                    {entry.children?.map((child) => (
                      <li key={child.to}>
                        <NavLink to={child.to}>{child.label}</NavLink>
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
      <main className="content" id="conteudo">
        {children}
      </main>
      <footer className="footer">
        © {year} <img src="/logo.svg" alt="" width={16} height={16} /> Limpeza
      </footer>
    </div>
  );
}
