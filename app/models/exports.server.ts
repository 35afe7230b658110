import { z } from "zod";

import { ExportJob, ExportListItem } from "../../api/routes/exports";

import { callApi, callApiForFile, type SignedInCaller } from "~/api.server";

/** The export jobs (POST/GET /exportacoes, docs/exports.md): only the requester reads theirs. */
export type ExportJobState = z.infer<typeof ExportJob>;

export function queueExport(api: SignedInCaller, caminho: string) {
  return callApi(api, "/exportacoes", { method: "POST", json: { caminho }, schema: ExportJob });
}

export function getExport(api: SignedInCaller, id: number) {
  return callApi(api, `/exportacoes/${id}`, { schema: ExportJob });
}

const ExportList = z.object({ items: z.array(ExportListItem) });
export function listExports(api: SignedInCaller) {
  return callApi(api, "/exportacoes", { schema: ExportList });
}

export function exportFile(api: SignedInCaller, id: number) {
  return callApiForFile(api, `/exportacoes/${id}/arquivo`);
}
