/** Display formats of spec 000 §1: dd/MM/yyyy, Portuguese month names; business time zone America/Fortaleza. */
export const BUSINESS_TIME_ZONE = "America/Fortaleza";

/**
 * A day ('yyyy-MM-dd', or the day of an ISO date-time) as 'dd/MM/yyyy'. No date library: the pages that show days
 * in the browser (the client report) stay light, and no page pays for date-fns through a shared chunk.
 */
export function formatDateBR(isoDate: string) {
  return isoDate.slice(0, 10).split("-").reverse().join("/");
}

/** 'N setores cadastrados' / '1 categoria cadastrada': the count toasts give after a create or an import. */
export function createdCount(
  noun: { singular: string; plural: string; feminine: boolean },
  count: number,
  verb = "cadastrad",
) {
  const ending = (noun.feminine ? "a" : "o") + (count === 1 ? "" : "s");
  return `${count.toLocaleString("pt-BR")} ${count === 1 ? noun.singular : noun.plural} ${verb}${ending}`;
}
