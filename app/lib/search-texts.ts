/**
 * A list's empty state when a search found nothing (its other empty text says nothing was registered yet). A module of
 * its own: the lists' chunks take it, not every page's shared one.
 */
export const NO_SEARCH_RESULTS = "Nenhum resultado para a busca.";
