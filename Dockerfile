# svc's container image: `docker build -t svc .` (or podman). Two stages: the first compiles the
# checkout and packs it exactly as `npm pack` publishes it; the second installs that tarball with
# its runtime dependencies only, on the slim Node image, and runs it as an unprivileged user.
ARG NODE_IMAGE=docker.io/library/node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would compile before the sources are here (done below).
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json ./
COPY api api
COPY kernel kernel
COPY plugins plugins
COPY cli cli
COPY host host
COPY scripts scripts
COPY docs docs
COPY README.md ./
# Only what the package's `files` ships is compiled: tests, bench and examples stay out.
RUN printf '{"extends":"./tsconfig.json","include":["api","kernel","plugins","cli","host"]}' > tsconfig.image.json \
 && node_modules/.bin/tsc -p tsconfig.image.json \
 && node scripts/resolve-self-imports.mjs \
 && node scripts/vendor-assets.mjs \
 && mkdir -p /tmp/package \
 && npm pack --ignore-scripts --pack-destination /tmp/package

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    SERVICE_HOST=0.0.0.0 \
    SERVICE_PORT=1416 \
    SERVICE_PIPELINES_DIR=/pipelines \
    XDG_CACHE_HOME=/home/svc/.cache \
    NPM_CONFIG_UPDATE_NOTIFIER=false
COPY --from=build /tmp/package /tmp/package
RUN npm install -g --omit=dev --no-audit --no-fund /tmp/package/*.tgz \
 && rm -rf /tmp/package /root/.npm \
 && useradd --system --uid 10001 --user-group --create-home --home-dir /home/svc svc \
 && mkdir -p /pipelines && chown svc:svc /pipelines
USER svc
WORKDIR /home/svc
# Wrappers and YAML pipelines: mount your folder here (read-only is fine).
VOLUME ["/pipelines"]
EXPOSE 1416
# No curl in the slim image: Node asks /readyz (startup deploys done, not draining).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.SERVICE_PORT||1416)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM itself; svc handles SIGINT/SIGTERM (drains within
# SERVICE_GRACEFUL_SHUTDOWN_TIMEOUT, then exits 0), and it starts no children but its own workers.
STOPSIGNAL SIGTERM
CMD ["svc", "run"]
