-- The season's Season Summary Launch and Reminder emails are sent by hand only: no schedule
-- rule sends them (the season's summary_launch and summary_reminder variants already go when
-- its Results Summary is posted). They were made AUTOMATIC; they become MANUAL, and the
-- database keeps them so.
UPDATE "email_templates" SET "send_mode" = 'MANUAL', "updated_at" = now()
  WHERE "type" IN ('season_summary_launch', 'season_summary_reminder') AND "send_mode" <> 'MANUAL';--> statement-breakpoint
ALTER TABLE "email_templates" ADD CONSTRAINT "email_templates_manual_only_check" CHECK ("email_templates"."type" not in ('season_summary_launch', 'season_summary_reminder') or "email_templates"."send_mode" = 'MANUAL');
