/**
 * Input masks of spec 000 §5, shared by the browser (as-you-type) and the server (normalising input).
 * A pattern's '0' takes one digit; any other character is inserted as typed text reaches it.
 */
export const MASKS = {
  cpf: "000.000.000-00",
  cnpj: "00.000.000/0000-00",
  phone: "(00) 0 0000-0000",
  cep: "00000-000",
  date: "00/00/0000",
} as const;

export type MaskName = keyof typeof MASKS;

export function onlyDigits(value: string) {
  return value.replace(/\D+/g, "");
}

export function applyMask(mask: MaskName, value: string) {
  const pattern = MASKS[mask];
  const digits = onlyDigits(value);
  let out = "";
  let next = 0;
  for (const slot of pattern) {
    if (next >= digits.length) break;
    if (slot === "0") out += digits[next++];
    else out += slot;
  }
  return out;
}

/** Phones with 10 digits (landlines) are shown as (00) 0000-0000, mobiles with the extra 9 as the mask says. */
export function formatPhone(value: string) {
  const digits = onlyDigits(value);
  if (digits.length === 10) return `(${digits.slice(0, 2)}) ${digits.slice(2, 6)}-${digits.slice(6)}`;
  return applyMask("phone", digits);
}

export const formatCpfText = (value: string) => applyMask("cpf", value);
export const formatCnpjText = (value: string) => applyMask("cnpj", value);
