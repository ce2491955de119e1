CREATE TABLE "used_dashboard_links" (
	"link_id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"used_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "replaced_by" uuid;--> statement-breakpoint
ALTER TABLE "used_dashboard_links" ADD CONSTRAINT "used_dashboard_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "used_dashboard_links_expires_idx" ON "used_dashboard_links" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "used_dashboard_links_user_idx" ON "used_dashboard_links" USING btree ("user_id");