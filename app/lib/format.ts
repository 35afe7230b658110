import { TZDate } from "@date-fns/tz";
import { format, parseISO } from "date-fns";
import { ptBR } from "date-fns/locale";

import { formatPhone } from "../../api/domain/masks";

/** Display formats of spec 000 §1: dd/MM/yyyy and HH:mm:ss in America/Fortaleza, Portuguese month names. */
export const BUSINESS_TIME_ZONE = "America/Fortaleza";

export function formatDateBR(isoDate: string) {
  return format(parseISO(isoDate), "dd/MM/yyyy", { locale: ptBR });
}

export function formatDateTimeBR(instant: string | Date) {
  return format(new TZDate(new Date(instant), BUSINESS_TIME_ZONE), "dd/MM/yyyy HH:mm:ss", { locale: ptBR });
}

export const formatPhoneBR = formatPhone;
