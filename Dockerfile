# Vitae in a container: docs/deploy.md explains running it behind a reverse proxy, backups and upgrades.
#
#   docker build -t vitae .
#   docker run -p 3000:3000 -p 3001:3001 -v vitae-data:/data vitae
#
# Two stages: `build` installs every dependency, builds the web app and prunes to the runtime dependencies;
# the final image holds that result, git (the content repository) and tini, and runs as the unprivileged
# `node` user. testing/dockerfile.image-test.ts runs this file's RUN steps and CMD (no registry is needed for it).
# The code needs Node.js ≥ 20.19; the image uses the current LTS line.
ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
RUN npm prune --omit=dev --no-audit --no-fund
# The Open Graph cards read only the regular and bold WOFF files of the @fontsource packages (app/utils/og-fonts.server.ts):
# their other weights and their WOFF2 files are about 200 MB the image need not carry.
RUN find node_modules/@fontsource -path '*/files/*' -type f ! -name '*-400-normal.woff' ! -name '*-700-normal.woff' -delete

FROM node:${NODE_VERSION}-slim
# git for the content repository under DATA_DIR; tini as PID 1 forwards signals and reaps git's children.
RUN apt-get update \
  && apt-get install -y --no-install-recommends git tini \
  && rm -rf /var/lib/apt/lists/*
RUN mkdir -p /data && chown node:node /data
# MALLOC_ARENA_MAX: glibc's allocator keeps an arena per thread (the service's and its build worker's); two
# keep the resident memory about 25 MB lower at 10× the demo content and 30 MB at 100×, at the same speed.
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=3000 \
  PREVIEW_PORT=3001 \
  DATA_DIR=/data \
  MALLOC_ARENA_MAX=2
WORKDIR /app
# The application stays owned by root (read-only to the service); only DATA_DIR is writable.
COPY --from=build /app /app
USER node
VOLUME ["/data"]
EXPOSE 3000 3001
# SIGTERM lets in-flight requests finish within SHUTDOWN_GRACE_SECONDS (default 25 s): give `docker stop -t 30`.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
# `npm run serve`'s command (package.json; testing/dependencies.test.ts keeps the two the same).
CMD ["node", "--max-semi-space-size=2", "scripts/start.mjs", "serve"]
