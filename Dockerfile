# scigate: the governed MCP gateway. Build: docker build -t scigate .
# Run:   docker run -p 7410:7410 -v scigate-data:/data scigate
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts ./scripts
COPY catalog ./catalog
COPY sources ./sources
COPY gateway ./gateway
COPY storage ./storage
COPY admin ./admin
COPY bench ./bench
COPY test ./test
RUN npm run build && npm prune --omit=dev

FROM node:20-slim
ENV NODE_ENV=production \
    SCIGATE_HOST=0.0.0.0 \
    SCIGATE_PORT=7410 \
    SCIGATE_DATA_DIR=/data \
    SCIGATE_ALLOWED_HOSTS=localhost
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 7410
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:7410/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "dist/bundle/scigate.js"]
CMD ["serve"]
