/** The URLs of /listagem-usuarios and its pages; `back` is the list as it was (kept as ?redirectTo=). */
export const USERS_PATH = "/listagem-usuarios";

const withBack = (path: string, back: string, query: Record<string, string> = {}) => {
  const search = new URLSearchParams(query);
  if (back !== USERS_PATH) search.set("redirectTo", back);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
};

/** 'Editar Usuário': ?aba=nivel is the 'Alterar nível de acesso' tab. */
export const editHref = (id: number, back: string, tab?: "nivel") =>
  withBack(`${USERS_PATH}/${id}/editar`, back, tab ? { aba: tab } : {});

/** 'Nomes do Usuário': ?aba=cadastrar is 'Cadastrar Nome', ?editar=ID 'Editar Nome'. */
export const namesHref = (id: number, back: string, query: { aba?: "cadastrar"; editar?: number } = {}) =>
  withBack(`${USERS_PATH}/${id}/nomes`, back, {
    ...(query.aba ? { aba: query.aba } : {}),
    ...(query.editar ? { editar: String(query.editar) } : {}),
  });

/** The confirmation page of a name's removal (without JS; with JS the names page asks in a dialog). */
export const nameRemoveHref = (id: number, nameId: number, back: string) =>
  withBack(`${USERS_PATH}/${id}/nomes/${nameId}/remover`, back);
