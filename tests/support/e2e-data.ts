/**
 * Facts the browser tests share with their setup: the demo accounts they sign in as, and a pool of extra
 * pre-registered CPFs (written by e2e-prepare.ts) so a test that changes a password can sign up a user of its own.
 */
export { DEMO_ACCOUNTS, DEMO_FREE_CPFS, DEMO_PASSWORD } from "../../api/db/seed.ts";

/** Accounts signed in once by the global setup; tests reuse those sessions and never change these passwords. */
export const SHARED_ACCOUNTS = {
  principal: "principal@demo.com.br",
  admin: "admin@demo.com.br",
  coordenador: "coordenador@demo.com.br",
  auditor: "auditor@demo.com.br",
  cliente: "cliente@demo.com.br",
  semnivel: "semnivel@demo.com.br",
  /** The other tenant's administrator: cross-tenant checks. */
  outra: "outra@demo.com.br",
} as const;
export type SharedAccount = keyof typeof SHARED_ACCOUNTS;

/** A CPF with valid check digits, built from nine digits. */
export function cpfWithCheckDigits(base9: string) {
  const digits = base9.split("").map(Number);
  const check = (length: number) => {
    const sum = digits.slice(0, length).reduce((total, digit, index) => total + digit * (length + 1 - index), 0);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  digits.push(check(9));
  digits.push(check(10));
  return digits.join("");
}

// The demo company allows 50 users: 12 demo accounts + 3 free demo CPFs + this pool must stay below that.
export const E2E_CPF_POOL_SIZE = 30;

/** CPFs pre-registered for the tests' own sign-ups (Administrador at the demo company's head office). */
export const E2E_CPFS = Array.from({ length: E2E_CPF_POOL_SIZE }, (_, index) =>
  cpfWithCheckDigits(`7030${String(index + 1).padStart(5, "0")}`),
);
