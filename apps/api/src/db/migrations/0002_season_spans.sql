ALTER TABLE "seasons" ADD COLUMN "start_date" date;--> statement-breakpoint
ALTER TABLE "seasons" ADD COLUMN "end_date" date;--> statement-breakpoint
CREATE INDEX "seasons_span_idx" ON "seasons" USING btree ("end_date","start_date");--> statement-breakpoint
-- Seasons saved before their span was kept on the row.
UPDATE "seasons" SET "start_date" = spans.start_date, "end_date" = spans.end_date
FROM (SELECT "season_id", min("start_date") AS start_date, max("end_date") AS end_date FROM "rounds" GROUP BY "season_id") AS spans
WHERE spans."season_id" = "seasons"."id";
