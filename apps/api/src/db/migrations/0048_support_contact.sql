ALTER TABLE "clients" ADD COLUMN "support_email" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "support_phone" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "support_email" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "support_phone" text;