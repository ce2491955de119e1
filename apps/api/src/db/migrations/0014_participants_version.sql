ALTER TABLE "projects" ADD COLUMN "participants_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Once per statement (not per row): the projects whose participants the statement changed.
CREATE FUNCTION "bump_participants_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "projects" SET "participants_version" = "participants_version" + 1
  WHERE "id" IN (SELECT DISTINCT "project_id" FROM "changed");
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "project_participants_inserted" AFTER INSERT ON "project_participants"
  REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "bump_participants_version"();
--> statement-breakpoint
CREATE TRIGGER "project_participants_updated" AFTER UPDATE ON "project_participants"
  REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "bump_participants_version"();
--> statement-breakpoint
CREATE TRIGGER "project_participants_deleted" AFTER DELETE ON "project_participants"
  REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "bump_participants_version"();
--> statement-breakpoint
-- They fire also while an import has row triggers switched off (db/bulk-writes.ts).
ALTER TABLE "project_participants" ENABLE ALWAYS TRIGGER "project_participants_inserted";
--> statement-breakpoint
ALTER TABLE "project_participants" ENABLE ALWAYS TRIGGER "project_participants_updated";
--> statement-breakpoint
ALTER TABLE "project_participants" ENABLE ALWAYS TRIGGER "project_participants_deleted";
