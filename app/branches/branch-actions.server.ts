import { BRANCH_TEXTS as T } from "../../api/domain/organisation";

import type { ApiFailure } from "~/api.server";
import type { ToastInput } from "~/toast.server";

/**
 * The toast for an API refusal of a branch save (spec 000 §5, §6, §8): a duplicate name is info 'Filial duplicada',
 * the master-CPF rule is 'Permissão negada!', anything else 'Erro' with 'Erro ao cadastrar filial' / 'Erro ao
 * salvar filial' (and the server's reason, when it gives one the page does not already show on a field).
 */
export function branchFailureToast(failure: ApiFailure, failed: string): ToastInput {
  if (failure.status === 409) return { type: "info", title: T.duplicateTitle, description: T.duplicateDescription };
  if (failure.status === 403) return { type: "error", title: T.deniedTitle, description: failure.message };
  return { type: "error", title: T.failedTitle, description: failed };
}
