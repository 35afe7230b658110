/**
 * The list is sorted by the environment's name unless the URL says otherwise (list, export and the sort headers
 * agree). The API's default (DEFAULT_ENVIRONMENT_SORT); written out so the list's browser bundle does not pull the
 * domain module and its zod rules in (tests/unit/environment-screens.test.ts checks they agree).
 */
export const DEFAULT_SORT = "ambiente";
