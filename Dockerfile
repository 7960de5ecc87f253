# kiosbot container image. Build:  docker build -t kiosbot .
# Run:    docker run -d --name kiosbot --env-file .env -v kiosbot-data:/data -p 127.0.0.1:3000:3000 kiosbot
# Configuration comes from the environment at run time (--env-file); nothing secret is baked in.

# --- build: install every dependency and bundle the TypeScript with esbuild ---
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json ./
COPY src ./src
COPY tools/build.ts ./tools/build.ts
COPY locales ./locales
RUN npm run build

# --- runtime: production dependencies only, the bundle and the locales, a non-root user ---
FROM node:20-slim AS runtime
ENV NODE_ENV=production \
    DATA_DIR=/data \
    BACKUP_DIR=/data/backups \
    PORT=3000 \
    HEALTH_HOST=0.0.0.0
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
# The node image's unprivileged user (uid 1000) owns the data directory and nothing else.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is PID 1's child of nothing else: SIGTERM from `docker stop` reaches the bot, which stops gracefully.
CMD ["node", "dist/src/bot/main.mjs"]
