/** /ocorrencias/:id/fotos/:name: a photo of an incident, for whoever may read the incident (docs/incidents.md). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { recordPhotoLoader } from "~/photos/photos.server";

export const loader = (args: LoaderFunctionArgs) => recordPhotoLoader(args, "/ocorrencias");
