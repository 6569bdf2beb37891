FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The workspace's manifest, which npm ci installs from the lock file with the rest (the service does not use it).
COPY clients/typescript/package.json ./clients/typescript/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/copy-assets.mjs ./scripts/
COPY src ./src
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/package.json ./
EXPOSE 8080
USER node
CMD ["node", "dist/main.js", "serve"]
