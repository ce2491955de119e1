#!/bin/sh
# The role the app serves with (issue #46): it owns nothing. The official postgres image runs
# this once, when it makes the database: POSTGRES_USER owns the schema and runs the migrations
# (the app's DATABASE_OWNER_URL), and grants this role what it may do after each migration —
# everything on the app's tables, only SELECT and INSERT on the audit trail's (DATABASE_URL).
set -eu
psql --set ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  --set role="${APP_DB_USER:-pss_app}" --set password="$APP_DB_PASSWORD" <<'SQL'
CREATE ROLE :"role" LOGIN PASSWORD :'password';
GRANT CONNECT ON DATABASE :"DBNAME" TO :"role";
SQL
