-- Links are judged the same by their normal form (scheme and host lower case, no default
-- port, no trailing slash on the path; the path's case, query and fragment kept), held in
-- link_key, which the unique index now covers instead of the link as written. Existing
-- links get theirs here, as the app's normalLinkKey makes it; where two links already in the
-- library have the same normal form, the oldest keeps it and the others stay (attached to
-- cases as they may be) without one.
DROP INDEX "resources_link_key";--> statement-breakpoint
ALTER TABLE "resources" ADD COLUMN "link_key" text;--> statement-breakpoint
WITH "parts" AS (
  SELECT "id", "created_at",
    regexp_match("link", '^([A-Za-z][A-Za-z0-9+.-]*:)//([^/?#]*)([^?#]*)(.*)$') AS "m"
  FROM "resources" WHERE "link" IS NOT NULL
), "keyed" AS (
  SELECT "id", "created_at",
    lower("m"[1]) || '//'
      || regexp_replace(lower("m"[2]), CASE lower("m"[1]) WHEN 'http:' THEN ':80$' WHEN 'https:' THEN ':443$' ELSE '$^' END, '')
      || regexp_replace("m"[3], '/+$', '') || "m"[4] AS "key"
  FROM "parts" WHERE "m" IS NOT NULL
), "ranked" AS (
  SELECT "id", "key", row_number() OVER (PARTITION BY "key" ORDER BY "created_at", "id") AS "n" FROM "keyed"
)
UPDATE "resources" SET "link_key" = "ranked"."key" FROM "ranked"
  WHERE "resources"."id" = "ranked"."id" AND "ranked"."n" = 1;--> statement-breakpoint
CREATE UNIQUE INDEX "resources_link_key_key" ON "resources" USING btree ("link_key") WHERE "resources"."link_key" is not null;
