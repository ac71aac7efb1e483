# syntax=docker/dockerfile:1
# The app as a container: Next's standalone server (no dev dependencies, no sources), run as the unprivileged
# `node` user, with a health check. `--target sandbox` builds the optional Portal sandbox image instead.

FROM node:22-bookworm-slim AS deps
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
# Standalone output only here: `npm start` and the tests keep the ordinary build.
ENV NEXT_OUTPUT=standalone NEXT_TELEMETRY_DISABLED=1
RUN npx next build

# Runtime dependencies only, for the sandbox (it runs from its TypeScript sources under tsx).
FROM node:22-bookworm-slim AS prod-deps
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim AS app
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 HOSTNAME=0.0.0.0 PORT=3000 DATA_DIR=/app/.data
COPY --from=build --chown=node:node /src/.next/standalone ./
COPY --from=build --chown=node:node /src/.next/static ./.next/static
# Read from node_modules at run time by path, which file tracing cannot see: the PDF's fonts and pdfkit's data files.
COPY --from=prod-deps --chown=node:node /src/node_modules/@embedpdf ./node_modules/@embedpdf
COPY --from=prod-deps --chown=node:node /src/node_modules/@expo-google-fonts/noto-emoji ./node_modules/@expo-google-fonts/noto-emoji
COPY --from=prod-deps --chown=node:node /src/node_modules/pdfkit ./node_modules/pdfkit
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 3000
# Liveness only: readiness (/api/ready) is for the load balancer, which must stop sending while the app drains.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM reaches the server itself (no shell in between): it drains within DRAIN_GRACE_MS.
STOPSIGNAL SIGTERM
CMD ["node", "server.js"]

FROM node:22-bookworm-slim AS sandbox
WORKDIR /app
ENV NODE_ENV=production SANDBOX_HOST=0.0.0.0 SANDBOX_PORT=4010
COPY --from=prod-deps --chown=node:node /src/node_modules ./node_modules
COPY --chown=node:node package.json tsconfig.json ./
COPY --chown=node:node lib ./lib
COPY --chown=node:node server/sandbox ./server/sandbox
USER node
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.SANDBOX_PORT||4010)+'/v1/openapi.json').then(r=>process.exit(r.status<500?0:1),()=>process.exit(1))"]
CMD ["node", "--import", "tsx", "server/sandbox/main.ts"]
