import { expect, test } from "vitest";

// Before the API: the domain's zod/mini field rules are made before anything imports api/lib/zod-setup.ts.
import { environmentFields } from "../../api/domain/environments.ts";
import { useTestApi } from "../support/api.ts";

const t = useTestApi();

test("/api/openapi.json documents field rules made before zod's set-up ran", async () => {
  expect(environmentFields).toBeDefined();
  const answer = await t.get("/api/openapi.json");
  expect(answer.status).toBe(200);
  const text = JSON.stringify(answer.body);
  expect(text).toContain('"/api/environments"');
  expect(text).toContain('"maxLength":120');
});
