CREATE INDEX "users_last_name_idx" ON "users" USING btree (lower("last_name"),"id");--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at","id");