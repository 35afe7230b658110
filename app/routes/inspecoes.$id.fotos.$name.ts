/** /inspecoes/:id/fotos/:name: a photo of an inspection's item, for whoever may read the inspection. */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { recordPhotoLoader } from "~/photos/photos.server";

export const loader = (args: LoaderFunctionArgs) => recordPhotoLoader(args, "/inspecoes");
