# SmartConnect container image (docs/operations.md). Two stages: the first builds the release folder exactly as CI
# does (`npm ci && npm run release`: compiled server, web and widget bundles, migrations, production packages); the
# second is only that folder on Node's slim image, run as the unprivileged `node` user. Build it on the machine type
# it will run on (the release carries that platform's prebuilt binaries, e.g. the password hasher).
#
#   docker build -t smartconnect .
#   docker run -p 3000:3000 -v smartconnect-data:/data smartconnect
#
# CI cannot pull base images; it builds the same release folder in a clean directory and starts it with node from
# another one (e2e/release.spec.ts), which is what the second stage copies.

FROM node:20-bookworm AS build
WORKDIR /src
COPY . .
RUN npm ci --no-audit --no-fund && npm run release

FROM node:20-bookworm-slim
# pg_dump / pg_restore for `npm run backup` and `npm run restore` inside the container.
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-client && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /src/release/ /app/
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
VOLUME ["/data"]
# Ready, not just alive: a draining instance (SIGTERM) reports unhealthy and gets no new traffic.
HEALTHCHECK --interval=10s --timeout=4s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "server/src/main.js"]
