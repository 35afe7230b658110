/** /fotos/:name: an execution photo as stored, for the signed-in user's scope (docs/photos.md). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { photoFileLoader } from "~/photos/photos.server";

export const loader = (args: LoaderFunctionArgs) => photoFileLoader(args, "full");
