/**
 * Issue 7 items 6, 7 and 8: password reset checks the token before hashing and is limited per client address;
 * sign-in is limited per address and per account, counting failures only, with a short growing back-off; an unknown
 * e-mail costs the same hashing work as a known one.
 */
import { describe, expect, test } from "vitest";

import { hashPassword } from "../../api/auth/password.ts";
import { DEMO_PASSWORD } from "../../api/db/seed.ts";
import { RESET_PER_ADDRESS } from "../../api/routes/password.ts";
import { useTestApi } from "../support/api.ts";

const t = useTestApi();

const WAIT_SECONDS = "Muitas tentativas. Aguarde alguns segundos e tente novamente.";

const from = (address: string) => ({ headers: { "x-client-address": address } });
const signIn = (email: string, password: string, address: string) =>
  t.post("/api/sessions", { email, password }, from(address));

async function timed(work: () => Promise<unknown>) {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

const middle = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;

async function median(times: number, work: () => Promise<unknown>) {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) samples.push(await timed(work));
  return middle(samples);
}

describe("password reset (item 6)", () => {
  test("a bad token is refused before any password hashing", async () => {
    const hashing = await median(3, () => hashPassword("umaSenha1"));
    const badReset = await median(5, () =>
      t.post(
        "/api/password/reset",
        { token: "nao-existe", password: "novaSenha1", passwordConfirmation: "novaSenha1" },
        from("10.6.0.1"),
      ),
    );
    expect(badReset).toBeLessThan(hashing / 2);
  });

  test(`more than ${RESET_PER_ADDRESS} tries from one address in 15 minutes answer 429; another address is served`, async () => {
    const body = { token: "nao-existe", password: "novaSenha1", passwordConfirmation: "novaSenha1" };
    for (let i = 0; i < RESET_PER_ADDRESS; i++) {
      expect((await t.post("/api/password/reset", body, from("10.6.0.2"))).status).toBe(400);
    }
    const blocked = await t.post("/api/password/reset", body, from("10.6.0.2"));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await t.post("/api/password/reset", body, from("10.6.0.3"))).status).toBe(400);
  });
});

describe("sign-in limits (item 7)", () => {
  test("one address trying many e-mails: 30 failures answer 401, the 31st try waits 1 s (429)", async () => {
    for (let i = 0; i < 30; i++) {
      expect((await signIn(`ninguem${i}@exemplo.com`, "errada", "10.7.0.1")).status, `try ${i + 1}`).toBe(401);
    }
    const waiting = await signIn("ninguem30@exemplo.com", "errada", "10.7.0.1");
    expect(waiting.status).toBe(429);
    expect(waiting.headers.get("retry-after")).toBe("1");
    expect(waiting.body).toEqual({ message: WAIT_SECONDS });
    // Another address is not affected.
    expect((await signIn("cliente@demo.com.br", DEMO_PASSWORD, "10.7.0.2")).status).toBe(200);
  }, 60_000);

  test("a guesser's failures do not lock the owner out; the guesser waits a short, growing time", async () => {
    for (let i = 1; i <= 5; i++) {
      expect((await signIn("auditor@demo.com.br", `errada-${i}`, "10.7.1.1")).status, `attempt ${i}`).toBe(401);
    }
    // The guesser's sixth try comes before the 1 s back-off is over.
    const waiting = await signIn("auditor@demo.com.br", DEMO_PASSWORD, "10.7.1.1");
    expect(waiting.status).toBe(429);
    expect(waiting.headers.get("retry-after")).toBe("1");
    expect(waiting.body).toEqual({ message: WAIT_SECONDS });
    // The owner, elsewhere, signs in.
    expect((await signIn("auditor@demo.com.br", DEMO_PASSWORD, "10.7.1.2")).status).toBe(200);
    // After the back-off the right password works from the guesser's address too (and clears its count).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await signIn("auditor@demo.com.br", DEMO_PASSWORD, "10.7.1.1")).status).toBe(200);
  });

  test("successful sign-ins are not counted", async () => {
    for (let i = 0; i < 15; i++) {
      expect((await signIn("coordenador@demo.com.br", DEMO_PASSWORD, "10.7.2.1")).status, `sign-in ${i}`).toBe(200);
    }
  });
});

describe("sign-in time (item 8)", () => {
  test("an unknown e-mail takes about as long as a known one with a wrong password", async () => {
    // Interleaved, so a busy machine slows both alike (measured one after the other, a CI run once saw 2x).
    const known: number[] = [];
    const unknown: number[] = [];
    for (let n = 0; n < 7; n++) {
      known.push(await timed(() => signIn("principal@demo.com.br", "errada", `10.8.0.${n}`)));
      unknown.push(await timed(() => signIn("nao.existe@demo.com.br", "errada", `10.8.1.${n}`)));
    }
    expect(middle(unknown)).toBeGreaterThan(middle(known) / 2);
    expect(middle(unknown)).toBeLessThan(middle(known) * 2);
  });
});
