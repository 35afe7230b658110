import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import type { ApiDeps, ApiEnv } from "../context.ts";
import { ROOM_TEXTS } from "../domain/room-page.ts";
import { businessToday } from "../domain/schedule-expansion.ts";
import { notFound } from "../lib/errors.ts";
import { errorResponses, int32, jsonResponse } from "../lib/openapi.ts";
import { readRoomDay } from "../services/room-page.ts";

/**
 * The public room page's data (spec 001 §2.14; ours: the spec's page calls the signed-in GET
 * /historic/v2/byEnvironment/{id}, but whoever scans a QR code has no session). No token: names, avatar file names and
 * times only, today in America/Fortaleza. docs/room-page.md.
 */

const RoomCard = z.object({
  state: z.enum(["done", "inProgress", "upcoming"]),
  type: z.enum(["Principal", "Revisão", "Extra"]),
  extra: z.boolean().openapi({ description: "Performed beyond the scheduled hours (EXTRA)" }),
  employeeName: z.string(),
  photo: z.string().nullable().openapi({ description: "Avatar file name: /api/files/avatars/{photo}/thumb" }),
  scheduled: z.object({ horaIni: z.string(), horaFim: z.string() }).nullable(),
  performed: z.object({ start: z.string().nullable(), end: z.string().nullable() }).nullable(),
});

export const RoomPage = z
  .object({
    environment: z.object({ id: z.number(), name: z.string(), empresa: z.string() }),
    date: z.string().openapi({ description: "yyyy-MM-dd, today in America/Fortaleza" }),
    cards: z.array(RoomCard).openapi({ description: "The day's cards in the day's order (scheduled hours paired)" }),
  })
  .openapi("RoomPage");
export type RoomPage = z.infer<typeof RoomPage>;

/** How long a browser or proxy may keep the answer: a cleaning shows within a minute. */
export const ROOM_PAGE_MAX_AGE = 60;

export function infoRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.openapi(
    createRoute({
      method: "get",
      path: "/info/ambiente/{id}",
      tags: ["Ambientes"],
      summary: "The public room page: today's scheduled and performed cleanings of one environment (no token)",
      request: { params: z.object({ id: int32 }) },
      responses: {
        200: jsonResponse("The room and its day", RoomPage),
        400: errorResponses[400],
        404: errorResponses[404],
        503: errorResponses[503],
      },
    }),
    async (ctx) => {
      const day = await readRoomDay(db, ctx.req.valid("param").id, businessToday());
      if (!day) throw notFound(ROOM_TEXTS.notFoundTitle);
      ctx.header("cache-control", `public, max-age=${ROOM_PAGE_MAX_AGE}`);
      return ctx.json(day, 200);
    },
  );

  return app;
}
