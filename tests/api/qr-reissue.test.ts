/**
 * 'Gerar novo QR code' in the API (docs/qr-codes.md 'Reissuing a code'): POST /api/ambientes/{id}/qrcode/reemitir
 * makes a new value for the room's QR code and keeps the one before; the same permission as editing a room; a room
 * outside the caller's scope is 404 and changes nothing. The printed files are decoded in field-proof-web.test.ts.
 */
import { beforeAll, describe, expect, test } from "vitest";

import { EnvironmentDetail } from "../../api/routes/environments.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds } from "../support/demo.ts";

const t = useTestApi();
const tokens: Record<string, string> = {};
let ids: Awaited<ReturnType<typeof demoIds>>;

beforeAll(async () => {
  for (const email of ["principal", "admin", "coordenador", "auditor", "cliente", "outra"])
    tokens[email] = await t.signIn(`${email}@demo.com.br`);
  ids = await demoIds(t.db);
});

/** A live room of a branch, with its QR columns as stored. */
async function roomOf(branchId: number) {
  return t.db
    .selectFrom("environments")
    .select(["id", "qr_codigo", "qr_codigo_anterior", "qr_emitido_em"])
    .where("branch_id", "=", branchId)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .executeTakeFirstOrThrow();
}

const stored = (id: number) =>
  t.db
    .selectFrom("environments")
    .select(["qr_codigo", "qr_codigo_anterior", "qr_emitido_em"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

const reissue = (id: number, token: string) => t.post(`/api/ambientes/${id}/qrcode/reemitir`, undefined, { token });

describe("POST /api/ambientes/{id}/qrcode/reemitir", () => {
  test("a new 16-hex value; the one before kept as the previous; the instant set", async () => {
    const room = await roomOf(ids.aldeota);
    const before = Date.now();
    const answer = await reissue(room.id, tokens.admin);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const after = await stored(room.id);
    expect(after.qr_codigo).toMatch(/^[0-9a-f]{16}$/);
    expect(after.qr_codigo).not.toBe(room.qr_codigo);
    expect(after.qr_codigo_anterior).toBe(room.qr_codigo);
    expect(after.qr_emitido_em!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  test("answers the room with its new value, as GET /api/environments/{id} then shows it", async () => {
    const room = await roomOf(ids.messejana);
    const answer = await reissue(room.id, tokens.principal);
    const detail = EnvironmentDetail.parse(answer.body);
    const { qr_codigo } = await stored(room.id);
    expect(detail).toMatchObject({ id: room.id, qrCodigo: qr_codigo });
    expect(detail.qrEmitidoEm).not.toBeNull();
    const read = await t.get(`/api/environments/${room.id}`, { token: tokens.admin });
    expect(read.body.qrCodigo).toBe(qr_codigo);
  });

  test("twice: the previous is the second-to-last value, the first one is gone", async () => {
    const room = await roomOf(ids.matriz);
    await reissue(room.id, tokens.admin);
    const middle = (await stored(room.id)).qr_codigo;
    await reissue(room.id, tokens.admin);
    const last = await stored(room.id);
    expect(last.qr_codigo_anterior).toBe(middle);
    expect([middle, room.qr_codigo]).not.toContain(last.qr_codigo);
  });

  test.each(["coordenador", "auditor", "cliente"])(
    "%s may not edit rooms: 403 'Permissão negada!', the value unchanged",
    async (who) => {
      const room = await roomOf(ids.aldeota);
      const answer = await reissue(room.id, tokens[who]);
      expect(answer.status).toBe(403);
      expect(answer.body.message).toBe("Permissão negada!");
      expect(await stored(room.id)).toEqual({
        qr_codigo: room.qr_codigo,
        qr_codigo_anterior: room.qr_codigo_anterior,
        qr_emitido_em: room.qr_emitido_em,
      });
    },
  );

  test("another company's room: 404, the value unchanged", async () => {
    const room = await roomOf(ids.recife);
    const answer = await reissue(room.id, tokens.admin);
    expect(answer.status).toBe(404);
    expect(await stored(room.id)).toMatchObject({ qr_codigo: room.qr_codigo, qr_codigo_anterior: null });
  });

  test("a removed room of the own company: 404", async () => {
    const room = await roomOf(ids.aldeota);
    await t.db.updateTable("environments").set({ deleted_at: new Date() }).where("id", "=", room.id).execute();
    try {
      expect((await reissue(room.id, tokens.admin)).status).toBe(404);
    } finally {
      await t.db.updateTable("environments").set({ deleted_at: null }).where("id", "=", room.id).execute();
    }
  });

  test("signed out: 401", async () => {
    const room = await roomOf(ids.aldeota);
    expect((await t.post(`/api/ambientes/${room.id}/qrcode/reemitir`)).status).toBe(401);
  });

  test("the list's rows carry the value the printed code holds (the bulk PDF reads it from there)", async () => {
    const room = await roomOf(ids.aldeota);
    const list = await t.get(`/api/environments?ids=${room.id}`, { token: tokens.admin });
    expect(list.body[0].qrCodigo).toBe((await stored(room.id)).qr_codigo);
  });
});
