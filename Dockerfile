# syntax=docker/dockerfile:1
# Portcullis: build with the dev dependencies, ship dist/ with the production ones only, run as `node`.

FROM node:20-slim AS build
WORKDIR /app
ENV CI=true SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
# No dependency needs its install script (native modules come prebuilt per platform), and the slim image
# has no compiler for the ones that would try to build from source.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ormconfig.ts ./
COPY src ./src
COPY scripts ./scripts
COPY bench ./bench
# The npm package's ffmpeg (@ffmpeg-installer, a 2018 build) is a development fallback that NODE_ENV=production
# refuses: it does not ship (keyframes run Debian's ffmpeg, installed below).
RUN npm run build && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
  && rm -rf node_modules/@ffmpeg-installer

FROM node:20-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data FFMPEG_PATH=/usr/bin/ffmpeg
WORKDIR /app
# Keyframes: Debian's ffmpeg, kept up to date by Debian's security updates; rebuilding the image takes the
# current one (docs/files-and-upload.md, Which ffmpeg runs). prlimit, which confines it, is util-linux's (in
# the base image); bubblewrap is its sandbox where the container allows user namespaces (FFMPEG_SANDBOX).
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ffmpeg bubblewrap \
  && rm -rf /var/lib/apt/lists/*
# Code and dependencies stay root-owned (read-only to the service); only DATA_DIR is writable.
# package.json is needed at run time: its "type": "module" makes dist/*.js ES modules.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# No curl in the image: node's fetch asks the readiness route (database reachable).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/API/auth/readyz/').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself as PID 1 receives SIGTERM: the service stops accepting, finishes the requests in flight
# (SHUTDOWN_GRACE_MS), stops its workers and closes the pool (src/app/shutdown.ts). The heap flags are those of
# `npm run start:prod` (docs/performance.md, Memory): a young generation of 2 x 8 MB and an old generation
# let grow 25% past the live data before it is collected, so the resident set stays near 180 MB under load.
CMD ["node", "--max-semi-space-size=16", "--heap-growing-percent=50", "dist/src/main.js"]
