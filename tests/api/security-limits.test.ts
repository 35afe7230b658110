/**
 * Issue 7 item 3: request bodies are refused over their limit before being buffered: from Content-Length at once,
 * and while streaming a body sent without one. Ordinary JSON/forms get BODY_LIMIT, multipart uploads UPLOAD_LIMIT.
 */
import { describe, expect, test } from "vitest";

import { AVATAR_TOO_BIG } from "../../api/domain/fields.ts";
import { DEFAULT_BODY_LIMITS } from "../../api/lib/body-limit.ts";
import { createTestApi, useTestApi } from "../support/api.ts";
import { userByEmail } from "../support/demo.ts";
import { avatarForm } from "../support/files.ts";

const t = useTestApi({ transport: "http" });

/** A body of `size` bytes sent as a stream, so it travels chunked, without Content-Length. */
function streamOf(size: number, chunk = 64 * 1024) {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= size) return controller.close();
      const next = Math.min(chunk, size - sent);
      sent += next;
      controller.enqueue(new Uint8Array(next).fill(0x61));
    },
  });
}

describe("body limits", () => {
  test("a JSON body over BODY_LIMIT (with Content-Length) answers 413 in Portuguese", async () => {
    const big = JSON.stringify({ email: "a".repeat(DEFAULT_BODY_LIMITS.body + 10), password: "x" });
    const answer = await t.call("POST", "/api/sessions", {
      raw: big,
      headers: { "content-type": "application/json" },
    });
    expect(answer.status).toBe(413);
    expect(answer.body.message).toBe("Os dados enviados passam do limite de 1 MB.");
  });

  test("a chunked body is cut at the limit while streaming: 413, not read to the end", async () => {
    const size = 50 * 1024 * 1024;
    let pulled = 0;
    const source = streamOf(size);
    const reader = source.getReader();
    const counting = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        pulled += value.length;
        controller.enqueue(value);
      },
    });
    const response = await fetch(`${t.origin}/api/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: counting,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect((await response.json()).message).toMatch(/passam do limite de 1 MB/);
    expect(pulled).toBeLessThan(size);
  });

  test("multipart bodies get the larger upload limit, and are refused above it", async () => {
    const token = await t.signIn("admin@demo.com.br");
    // 2.5 MB of multipart is over BODY_LIMIT but under UPLOAD_LIMIT: the route itself answers (avatar too big).
    const { id } = await userByEmail(t.db, "admin@demo.com.br");
    const form = avatarForm({ bytes: new Uint8Array(2.5 * 1024 * 1024), name: "foto.png", type: "image/png" }, id);
    const allowed = await t.call("PATCH", "/api/users/avatar", { token, form });
    expect(allowed.status).toBe(413);
    expect(allowed.body).toEqual({ message: AVATAR_TOO_BIG });

    const response = await fetch(`${t.origin}/api/users/avatar`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "multipart/form-data; boundary=x" },
      body: streamOf(DEFAULT_BODY_LIMITS.upload + 1024 * 1024),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect((await response.json()).message).toBe(
      "Os arquivos enviados passam do limite de 20 MB por envio. Envie arquivos menores ou um de cada vez.",
    );
  });

  test("both limits come from the configuration", async () => {
    const small = await createTestApi({ transport: "in-process" });
    try {
      const api = (await import("../../api/app.ts")).createApi({
        database: small.database,
        config: { publicUrl: undefined, env: "test", bodyLimit: 2048, uploadLimit: 4096 },
        logger: (await import("pino")).default({ level: "silent" }),
        mailer: { send: async () => {} } as never,
        storage: {} as never,
      });
      const post = (body: string, type: string) =>
        api.fetch(
          new Request("http://test.local/api/sessions", {
            method: "POST",
            headers: { "content-type": type, "content-length": String(body.length) },
            body,
          }),
        );
      expect((await post("x".repeat(3000), "application/json")).status).toBe(413);
      // A form under the upload limit gets past the guard to the route, which takes JSON only.
      const file = `--x\r\nContent-Disposition: form-data; name="a"; filename="a.csv"\r\n\r\n${"x".repeat(2900)}\r\n--x--\r\n`;
      const multipart = await post(file, "multipart/form-data; boundary=x");
      expect(multipart.status).toBe(415);
      expect(await multipart.json()).toEqual({ message: "Tipo de conteúdo não suportado" });
      expect((await post("x".repeat(5000), "multipart/form-data; boundary=x")).status).toBe(413);
    } finally {
      await small.close();
    }
  });
});
