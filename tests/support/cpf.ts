/** Valid CPFs for fixtures: nine digits plus the two check digits (mod 11), independent of the product's code. */
export function cpfWithCheckDigits(nine: string) {
  if (!/^\d{9}$/.test(nine)) throw new Error("cpfWithCheckDigits needs nine digits");
  const digits = nine.split("").map(Number);
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((total, digit, index) => total + digit * (length + 1 - index), 0);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  return digits.join("");
}

/** The same CPF with its last check digit changed: right length, wrong check digit. */
export function withWrongCheckDigit(cpf: string) {
  return cpf.slice(0, 10) + String((Number(cpf[10]) + 1) % 10);
}
