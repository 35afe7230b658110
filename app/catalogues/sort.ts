/** A catalogue list is sorted by name unless the URL says otherwise (list, export and the sort headers agree). */
export const DEFAULT_SORT = "nome";
