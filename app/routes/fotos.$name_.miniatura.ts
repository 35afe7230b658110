/** /fotos/:name/miniatura: an execution photo's 320-pixel-wide WebP thumbnail, for lists and phones (docs/photos.md). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { photoFileLoader } from "~/photos/photos.server";

export const loader = (args: LoaderFunctionArgs) => photoFileLoader(args, "thumb");
