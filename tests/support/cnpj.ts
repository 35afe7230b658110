/** Valid CNPJs for fixtures: twelve digits plus the two check digits (mod 11), independent of the product's code. */
export function cnpjWithCheckDigits(twelve: string) {
  if (!/^\d{12}$/.test(twelve)) throw new Error("cnpjWithCheckDigits needs twelve digits");
  const digits = twelve.split("").map(Number);
  for (const weights of [
    [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
    [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
  ]) {
    const rest = weights.reduce((total, weight, index) => total + weight * digits[index], 0) % 11;
    digits.push(rest < 2 ? 0 : 11 - rest);
  }
  return digits.join("");
}

/** 00.000.000/0000-00, as a person types it. */
export const punctuatedCnpj = (cnpj: string) =>
  `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;

/** The same CNPJ with its last check digit changed: right length, wrong check digit. */
export function withWrongCnpjCheckDigit(cnpj: string) {
  return cnpj.slice(0, 13) + String((Number(cnpj[13]) + 1) % 10);
}
