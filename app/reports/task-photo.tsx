import { Link } from "@remix-run/react";

/**
 * An execution's photo in the reports: a 64 px thumbnail that opens the zoom page (a link, so it works without JS),
 * or an empty frame of the same size when there is none, so the rows keep their columns.
 */
export function TaskPhoto({ photo, label }: { photo: { thumb: string; zoom: string } | null; label: string }) {
  if (!photo) return <span className="report-photo report-photo-none" aria-hidden="true" />;
  return (
    <Link to={photo.zoom} className="report-photo" aria-label={`Ampliar a foto de ${label}`}>
      <img src={photo.thumb} alt="" width={64} height={64} loading="lazy" />
    </Link>
  );
}
