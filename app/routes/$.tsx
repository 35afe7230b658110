import { redirect } from "@remix-run/node";

/** Any path the route table does not know goes to / (spec 000 §2). */
export async function loader() {
  return redirect("/");
}
