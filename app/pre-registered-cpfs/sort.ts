/** The list's default order (the API's sort key and the URL's ordem): by CPF. */
export const DEFAULT_SORT = "cpf";
