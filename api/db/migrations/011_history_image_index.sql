-- Execution photos are served by name (GET /api/files/photos/{name}, docs/photos.md): the route finds the history row
-- that names the file, then checks its booking against the caller's scope. Most rows have no photo, so only those
-- that have one are indexed.
create index history_image_idx on history (image) where image is not null;
