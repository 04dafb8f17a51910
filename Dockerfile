# trio in a container: the bundle (npm run build) on Node 20, run as the unprivileged `node` user,
# with its one SQLite file on the /data volume. See docs/operations.md.
#
#   docker build -t trio .
#   docker run -d --name trio -p 8080:8080 -v trio-data:/data trio
#   docker exec trio node dist/main.js backup /data/backup-$(date -u +%Y%m%dT%H%M%SZ).sqlite
#
# Three stages: `deps` installs the production dependencies (better-sqlite3 is native: its prebuilt
# binary is downloaded when one exists for this platform, otherwise it is compiled, hence the build
# tools), `build` bundles the sources with the dev dependencies, and the runtime stage takes only
# node_modules from the first and dist/ from the second: no compiler, no tsx, no TypeScript in it.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS toolchain
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# The lint toolchain is an npm workspace (docs/decisions.md): npm ci needs its package.json.
COPY tools/lint/package.json tools/lint/

FROM toolchain AS deps
RUN npm ci --omit=dev --no-audit --no-fund \
 && node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()" \
 && npm cache clean --force

FROM toolchain AS build
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_PATH=/data/trio.sqlite
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# /readyz answers 200 once the database answers. Node's own fetch: the slim image has no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The entry point is the CLI: `docker run trio migrate`, `… backup FILE`, `… --help` work too.
# node handles SIGTERM itself (serve finishes requests in flight, then closes the database).
ENTRYPOINT ["node", "dist/main.js"]
CMD ["serve"]
