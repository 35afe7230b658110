/** /campo/offline: what the service worker shows for a field page it has no copy of (docs/field-app.md 'Offline'). */
import type { MetaFunction } from "@remix-run/node";

import { FieldShell } from "~/field/field-shell";

export const meta: MetaFunction = () => [{ title: "Sem conexão | Limpeza" }];

export default function FieldOfflinePage() {
  return (
    <FieldShell>
      <h1>Sem conexão</h1>
      <p>
        Esta página não foi aberta com sinal antes, então o celular não tem uma cópia dela. O que você já registrou fica
        guardado e será enviado quando o sinal voltar.
      </p>
      <a className="big" href="/campo">
        Voltar para Hoje
      </a>
    </FieldShell>
  );
}
