import { format, parseISO } from "date-fns";
import { ptBR } from "date-fns/locale";

import { formatPhone } from "../../api/domain/masks";

/** Display formats of spec 000 §1: dd/MM/yyyy, Portuguese month names; business time zone America/Fortaleza. */
export const BUSINESS_TIME_ZONE = "America/Fortaleza";

export function formatDateBR(isoDate: string) {
  return format(parseISO(isoDate), "dd/MM/yyyy", { locale: ptBR });
}

/** A day in words, capitalised: 'Domingo, 22 de novembro de 2026' (page and dialog titles). */
export function weekdayDateBR(isoDate: string) {
  const text = format(parseISO(isoDate), "EEEE, d 'de' MMMM 'de' yyyy", { locale: ptBR });
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export const formatPhoneBR = formatPhone;

/** 'N setores cadastrados' / '1 categoria cadastrada': the count toasts give after a create or an import. */
export function createdCount(
  noun: { singular: string; plural: string; feminine: boolean },
  count: number,
  verb = "cadastrad",
) {
  const ending = (noun.feminine ? "a" : "o") + (count === 1 ? "" : "s");
  return `${count.toLocaleString("pt-BR")} ${count === 1 ? noun.singular : noun.plural} ${verb}${ending}`;
}
