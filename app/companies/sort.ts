/** The main-company list's default order (the API's sort key and the URL's ordem): by name. */
export const DEFAULT_SORT = "nome";
