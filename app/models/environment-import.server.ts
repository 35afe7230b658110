import { EnvironmentsImported } from "../../api/routes/environment-import";

import { callApi, type SignedInCaller } from "~/api.server";

/**
 * The environment importer's call (docs/environments.md 'Importing environments'): one .xlsx or CSV into one branch,
 * all rows or none. A refusal's row errors come back as `fieldErrors.file` (also `errors` in the answer's JSON).
 */
export function importEnvironmentsFile(api: SignedInCaller, branchId: string, file: File) {
  const upload = new FormData();
  upload.set("file", file);
  upload.set("companyId", branchId);
  return callApi(api, "/environments/import", { method: "POST", formData: upload, schema: EnvironmentsImported });
}
