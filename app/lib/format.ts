import { format, parseISO } from "date-fns";
import { ptBR } from "date-fns/locale";

import { formatPhone } from "../../api/domain/masks";

/** Display formats of spec 000 §1: dd/MM/yyyy, Portuguese month names; business time zone America/Fortaleza. */
export const BUSINESS_TIME_ZONE = "America/Fortaleza";

export function formatDateBR(isoDate: string) {
  return format(parseISO(isoDate), "dd/MM/yyyy", { locale: ptBR });
}

export const formatPhoneBR = formatPhone;
