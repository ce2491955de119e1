-- The per-request session check (modules/auth/live-sessions.ts): the account behind an
-- access token while its session (refresh-token family) has a token neither revoked nor
-- expired. A PL/pgSQL function because its statement's plan is kept for the connection:
-- the embedded database plans every parameterised query anew, and planning this join cost
-- as much as running it, on every signed-in request.
CREATE FUNCTION "auth_live_bearer"("p_family" uuid, "p_user" uuid, "p_now" timestamptz)
  RETURNS TABLE ("id" uuid, "email" text, "firstName" text, "lastName" text, "role" text, "clientId" uuid)
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
    SELECT u."id", u."email", u."first_name", u."last_name", u."role", u."client_id"
    FROM "sessions" s
    JOIN "users" u ON u."id" = s."user_id"
    WHERE s."family_id" = "p_family" AND s."user_id" = "p_user"
      AND s."revoked_at" IS NULL AND s."expires_at" > "p_now"
    LIMIT 1;
END
$$;
