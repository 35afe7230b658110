import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import type { ApiDeps, ApiEnv } from "../context.ts";
import { businessTime } from "../domain/board.ts";
import { INCIDENT_TEXTS, VISITOR_LIMITS } from "../domain/incidents.ts";
import { ROOM_TEXTS } from "../domain/room-page.ts";
import { businessToday } from "../domain/schedule-expansion.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { formTokens } from "../lib/form-token.ts";
import { errorResponses, int32, jsonBody, jsonResponse } from "../lib/openapi.ts";
import { clientAddress } from "../lib/rate-limit.ts";
import {
  rateRoom,
  refuseKnownFlood,
  reportProblem,
  roomIncidentState,
  type VisitorWhat,
} from "../services/incidents.ts";
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
    formToken: z.string().openapi({ description: "Signed time of this answer: send it back with a rating or report" }),
    kinds: z
      .array(z.object({ id: z.number(), nome: z.string() }))
      .openapi({ description: "The problems a visitor may report (the company's incident kinds)" }),
    openIncident: z
      .object({ status: z.enum(["aberta", "em_atendimento"]), reportedAt: z.string().openapi({ example: "09:14" }) })
      .nullable()
      .openapi({ description: "The room's latest unresolved incident: its state and the time it was reported only" }),
  })
  .openapi("RoomPage");
export type RoomPage = z.infer<typeof RoomPage>;

/** How long a browser or proxy may keep the answer: a cleaning shows within a minute. */
export const ROOM_PAGE_MAX_AGE = 60;

/** What a visitor's post answers, whatever became of it (a robot learns nothing from it). */
const Received = z.object({ recebido: z.literal(true) }).openapi("VisitorPostReceived");

const RatingBody = z.object({
  nota: z.number().int().openapi({ description: "1 (Muito ruim) to 5 (Muito boa)" }),
  formToken: z.string().max(64),
  site: z.string().max(200).optional().openapi({ description: "Leave empty (a field people do not see)" }),
});

const field = (form: FormData, name: string, max: number) => {
  const value = form.get(name);
  return typeof value === "string" ? value.slice(0, max) : "";
};

/**
 * An address or room this process knows to be over its limit costs nothing more: 429 before the body is read. The API
 * registers it ahead of its body guard (api/app.ts), which streams the whole form through its counts.
 */
export function guardVisitorFloods(app: OpenAPIHono<ApiEnv>) {
  for (const [path, what] of [
    ["/info/ambiente/:id/avaliacao", "rating"],
    ["/info/ambiente/:id/relato", "report"],
  ] as const) {
    app.post(path, async (ctx, next) => {
      const environmentId = Number(ctx.req.param("id"));
      if (Number.isSafeInteger(environmentId)) refuseKnownFlood(what, { environmentId, address: clientAddress(ctx) });
      await next();
    });
  }
}

/**
 * The room page's own forms (app/room, posted to the web server, which passes them on to the routes here): the same
 * refusal, before server.ts's body guard. Their URL is the page's own (a post clears the browser's copy of it), so the
 * kind comes from the body's type: the report sends a photo (multipart), the rating a plain form.
 */
export function refuseKnownWebFlood(environmentId: number, address: string, contentType: string | undefined) {
  const what: VisitorWhat = contentType?.toLowerCase().startsWith("multipart/form-data") ? "report" : "rating";
  refuseKnownFlood(what, { environmentId, address });
}

export function infoRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();
  const tokens = formTokens(deps.config.sessionSecret);
  const visitorDeps = { database: deps.database, storage: deps.storage, tokens };

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
      const id = ctx.req.valid("param").id;
      const day = await readRoomDay(db, id, businessToday());
      if (!day) throw notFound(ROOM_TEXTS.notFoundTitle);
      const { kinds, openIncident } = await roomIncidentState(db, id);
      ctx.header("cache-control", `public, max-age=${ROOM_PAGE_MAX_AGE}`);
      return ctx.json(
        {
          ...day,
          formToken: tokens.issue(String(id), Date.now()),
          kinds,
          openIncident: openIncident && {
            status: openIncident.status,
            reportedAt: businessTime(openIncident.reportedAt) ?? "",
          },
        },
        200,
      );
    },
  );

  const visitorAnswers = {
    202: jsonResponse("Received (also when dropped as a robot's: the answer does not tell)", Received),
    400: errorResponses[400],
    404: errorResponses[404],
    413: errorResponses[413],
    415: errorResponses[415],
    429: errorResponses[429],
  };

  app.openapi(
    createRoute({
      method: "post",
      path: "/info/ambiente/{id}/avaliacao",
      tags: ["Ocorrências"],
      summary: "A visitor rates the room's cleaning, 1 to 5 (no token; limited per address and per room)",
      request: { params: z.object({ id: int32 }), body: jsonBody(RatingBody) },
      responses: visitorAnswers,
    }),
    async (ctx) => {
      const body = ctx.req.valid("json");
      await rateRoom(
        visitorDeps,
        {
          environmentId: ctx.req.valid("param").id,
          nota: body.nota,
          formToken: body.formToken,
          honeypot: body.site ?? "",
          address: clientAddress(ctx),
        },
        new Date(),
      );
      return ctx.json({ recebido: true as const }, 202);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/info/ambiente/{id}/relato",
      tags: ["Ocorrências"],
      summary:
        "A visitor reports a problem: opens an incident, or adds to an identical one of the last 10 minutes " +
        "(multipart: tipo, descricao up to 500 characters, foto up to 5 MB, formToken, site)",
      request: {
        params: z.object({ id: int32 }),
        body: {
          content: {
            "multipart/form-data": {
              schema: z.object({
                // Optional here so a missing one gets the form's own message ('Escolha o que aconteceu.').
                tipo: z.string().optional().openapi({ description: "One of GET /info/ambiente/{id} `kinds`" }),
                descricao: z.string().optional(),
                foto: z.any().optional().openapi({ type: "string", format: "binary" }),
                formToken: z.string().optional(),
                site: z.string().optional().openapi({ description: "Leave empty" }),
              }),
            },
          },
          required: true,
        },
      },
      responses: visitorAnswers,
    }),
    async (ctx) => {
      const form = await ctx.req.formData();
      const photo = form.get("foto");
      if (photo !== null && typeof photo === "string" && photo !== "")
        throw new ApiError(415, INCIDENT_TEXTS.photoType);
      const kindId = int32.safeParse(field(form, "tipo", 12).trim() || undefined);
      await reportProblem(
        visitorDeps,
        {
          environmentId: ctx.req.valid("param").id,
          kindId: kindId.success ? kindId.data : null,
          // One character past the limit is enough to refuse it with the message.
          descricao: field(form, "descricao", VISITOR_LIMITS.descriptionMax + 1000),
          photo: photo instanceof File && photo.size > 0 ? new Uint8Array(await photo.arrayBuffer()) : null,
          formToken: field(form, "formToken", 64),
          honeypot: field(form, "site", 200),
          address: clientAddress(ctx),
        },
        new Date(),
      );
      return ctx.json({ recebido: true as const }, 202);
    },
  );

  return app;
}
