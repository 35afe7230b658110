import { z } from "zod";

import {
  ChecklistDetail,
  ChecklistSummary,
  PassMark,
  type ChecklistBody,
} from "../../api/routes/inspection-checklists";
import {
  InspectableRoomPage,
  InspectionDetail,
  InspectionChunk,
  InspectionFormAnswer,
  InspectionPage,
  InspectionScores,
} from "../../api/routes/inspections";

import { callApi, type SignedInCaller } from "~/api.server";

/** The scored inspections' calls of the REST API (issue 29, docs/inspections.md), for one signed-in user. */

export type InspectionListFilters = {
  filialId?: number;
  ambienteId?: number;
  dataIni?: string;
  dataFim?: string;
  resultado?: "aprovada" | "reprovada";
};
export type InspectionListQuery = InspectionListFilters & { page: number; size: number };

export const listInspections = (api: SignedInCaller, query: InspectionListQuery) =>
  callApi(api, "/inspecoes", { query, schema: InspectionPage });

/** One keyset chunk of the same list, in its order ('' for the first; then the answer's next): the downloads. */
export const listInspectionChunk = (
  api: SignedInCaller,
  query: InspectionListFilters & { after: string; size: number },
) => callApi(api, "/inspecoes", { query, schema: InspectionChunk });

export const inspectionScores = (
  api: SignedInCaller,
  query: { agrupar: "ambiente" | "filial" | "semana"; dataIni: string; dataFim: string; filialId?: number },
) => callApi(api, "/inspecoes/pontuacao", { query, schema: InspectionScores });

export const findInspection = (api: SignedInCaller, id: number) =>
  callApi(api, `/inspecoes/${id}`, { schema: InspectionDetail });

export const listInspectableRooms = (
  api: SignedInCaller,
  query: { filialId?: number; q?: string; page: number; size: number },
) => callApi(api, "/inspecoes/ambientes", { query, schema: InspectableRoomPage });

export const inspectionForm = (api: SignedInCaller, environmentId: number, reinspecaoDe?: number) =>
  callApi(api, `/inspecoes/formulario/${environmentId}`, { query: { reinspecaoDe }, schema: InspectionFormAnswer });

/** The submission as the browser sent it (answers, notes, photos), passed on as multipart. */
export const submitInspection = (api: SignedInCaller, form: FormData) =>
  callApi(api, "/inspecoes", { method: "POST", formData: form, schema: InspectionDetail });

export const openFailureIncident = (
  api: SignedInCaller,
  inspectionId: number,
  itemId: number,
  body: { tipoId: number; colaboradorId?: number },
) =>
  callApi(api, `/inspecoes/${inspectionId}/itens/${itemId}/ocorrencia`, {
    method: "POST",
    json: body,
    schema: z.object({ ocorrenciaId: z.number() }),
  });

export const listChecklists = (api: SignedInCaller) =>
  callApi(api, "/inspecoes/checklists", { schema: z.object({ items: z.array(ChecklistSummary) }) });

export const findChecklist = (api: SignedInCaller, id: number) =>
  callApi(api, `/inspecoes/checklists/${id}`, { schema: ChecklistDetail });

export const createChecklist = (api: SignedInCaller, body: z.infer<typeof ChecklistBody>) =>
  callApi(api, "/inspecoes/checklists", { method: "POST", json: body, schema: ChecklistDetail });

export const updateChecklist = (api: SignedInCaller, id: number, body: z.infer<typeof ChecklistBody>) =>
  callApi(api, `/inspecoes/checklists/${id}`, { method: "PUT", json: body, schema: ChecklistDetail });

export const duplicateChecklist = (api: SignedInCaller, id: number, filialId: number) =>
  callApi(api, `/inspecoes/checklists/${id}/duplicar`, { method: "POST", json: { filialId }, schema: ChecklistDetail });

export const readPassMark = (api: SignedInCaller) => callApi(api, "/inspecoes/nota-minima", { schema: PassMark });

export const savePassMark = (api: SignedInCaller, notaMinima: number) =>
  callApi(api, "/inspecoes/nota-minima", { method: "PUT", json: { notaMinima }, schema: PassMark });
