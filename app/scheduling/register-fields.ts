/** The register form's field and button names, shared by the page and its action (no server code here). */
export const ITEMS_FIELD = "itens";
/** The branch whose environments and collaborators the page showed (a no-JS company change reloads them). */
export const SHOWN_BRANCH_FIELD = "opcoesDe";
export const INTENT = {
  load: "carregar",
  openItem: "abrir-item",
  cancelItem: "cancelar-item",
  pairs: "horarios",
  addItem: "adicionar-item",
  removeItem: "remover-item:",
  /** Without JS 'Remover' asks first (spec 001 §2.2 'Remover (with confirmation)'); 'Sim' posts this. */
  confirmRemove: "confirmar-remocao:",
  save: "cadastrar",
} as const;
