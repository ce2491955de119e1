# syntax=docker/dockerfile:1
# The Patient Simulation Platform as one image: the API serves the built web app.
# Three stages: build (all dependencies, compiles web and API), deps (production
# dependencies only), and the runtime image with neither the sources nor the dev tools.
# Debian (glibc), not Alpine: sharp, @napi-rs/canvas and @node-rs/argon2 ship prebuilt
# glibc binaries, and GNU tar (used by the backup command) is part of the base image.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The manifests first, so the dependency layer is reused while only sources change.
COPY package.json package-lock.json .npmrc ./
COPY packages/contract/package.json packages/contract/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/contract packages/contract
COPY apps/api apps/api
COPY apps/web apps/web
RUN npm run build

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY packages/contract/package.json packages/contract/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
# The API's runtime dependencies only (no dev tools, nothing the web app needs at build time).
RUN npm ci --omit=dev --workspace apps/api --include-workspace-root=false --no-audit --no-fund \
  && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
# On PostgreSQL, two roles (README, "Two database roles"): DATABASE_OWNER_URL, the schema's
# owner, migrates at start and grants; DATABASE_URL, a role that owns nothing, serves, so the
# app cannot rewrite its own audit trail. AUDIT_SIGNING_KEY seals the trail (shared by every
# process; kept in DATA_DIR when unset). `node apps/api/dist/audit.js` checks the trail.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY --from=deps /app/package.json ./
COPY --from=build /app/packages/contract/package.json packages/contract/
COPY --from=build /app/apps/api/package.json apps/api/
COPY --from=build /app/apps/api/dist apps/api/dist
COPY --from=build /app/apps/web/dist apps/web/dist
# Runs as the image's unprivileged `node` user; DATA_DIR is the one place it writes.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# SIGTERM drains and stops cleanly (see README, "Several processes"); give it
# SHUTDOWN_DRAIN_SECONDS + SHUTDOWN_TIMEOUT_SECONDS before a SIGKILL (stop_grace_period).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself as PID 1 receives SIGTERM directly (no shell in between to swallow it).
CMD ["node", "apps/api/dist/main.js"]
