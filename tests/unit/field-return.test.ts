import { describe, expect, it } from "vitest";

import { fieldReturnPath } from "~/field/field-session.server";

/** The field sign-in's `voltar` (docs/field-app.md 'Who, and where'): a page of the field app, else 'Hoje'. */
describe("fieldReturnPath", () => {
  it("keeps a field page with its query (a room's QR value)", () => {
    expect(fieldReturnPath("/campo/ambiente/25?qr=0123456789abcdef")).toBe("/campo/ambiente/25?qr=0123456789abcdef");
  });

  it("keeps 'Hoje'", () => {
    expect(fieldReturnPath("/campo")).toBe("/campo");
  });

  it.each([
    ["a back-office page", "/dashboard"],
    ["a path that only starts like the field app", "/campos-de-futebol"],
    ["a dot segment out of the field app", "/campo/../dashboard"],
    ["another site", "//evil.example/campo"],
    ["nothing", null],
  ])("sends %s to 'Hoje'", (_case, value) => {
    expect(fieldReturnPath(value)).toBe("/campo");
  });
});
