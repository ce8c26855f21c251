#!/usr/bin/env bash
# Builds the production tree the way the Dockerfile does (build with the dev dependencies, then a clean
# install of the production dependencies only beside dist/), boots it on the embedded database and on
# PostgreSQL + Redis, and checks readiness and a sign-in on each. A run-time import of a development
# dependency (the image once crashed on `jose`) fails here.
#
#   bash scripts/ci-production-boot.sh            (PG_SERVER_URL / CI_REDIS_URL as in .ci/run)
#
# Docker: when a Docker daemon answers and can build the image, the same checks could run in a container;
# this machine's CI has no daemon and no registry for base images, so CI boots the tree directly (docs/configuration.md,
# Production).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PG_SERVER_URL="${PG_SERVER_URL:-${CI_DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/postgres}}"
REDIS="${CI_REDIS_URL:-redis://127.0.0.1:6379}"
WORK="$(mktemp -d)"
PROD="$WORK/app"
PID=""
DB=""
PASSWORD="ci-boot-$(node -e 'process.stdout.write(require("crypto").randomBytes(9).toString("hex"))')"

pg_admin() {
  PG_SERVER_URL="$PG_SERVER_URL" SQL="$1" node --input-type=module -e '
    import pg from "pg";
    const c = new pg.Client({ connectionString: process.env.PG_SERVER_URL });
    await c.connect();
    try { await c.query(process.env.SQL); } finally { await c.end(); }
  '
}
cleanup() {
  if [[ -n "$PID" ]]; then kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
  if [[ -n "$DB" ]]; then pg_admin "DROP DATABASE IF EXISTS $DB WITH (FORCE)" || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "production tree: build, then npm ci --omit=dev beside dist/ in $PROD"
npm run build >/dev/null
mkdir -p "$PROD"
cp package.json package-lock.json "$PROD/"
cp -r dist "$PROD/dist"
(cd "$PROD" && npm ci --omit=dev --ignore-scripts --prefer-offline --no-audit --no-fund >/dev/null)

# The Node flags the image runs the service with (package.json start:prod = the Dockerfile's CMD,
# test/utils/node-flags.spec.ts): the tree boots here exactly as it does there.
NODE_FLAGS="$(node --input-type=module -e 'import { readFileSync } from "node:fs"; import { serviceNodeFlags } from "./dist/scripts/node-flags.js"; process.stdout.write(serviceNodeFlags(JSON.parse(readFileSync("package.json", "utf8")).scripts["start:prod"]).join(" "))')"
echo "node flags: $NODE_FLAGS"

# Boots the tree with the given environment, waits for readyz, signs the bootstrap administrator in.
boot_and_check() {
  local label="$1"
  shift
  local port
  port="$(node -e 'const s=require("net").createServer().listen(0,()=>{process.stdout.write(String(s.address().port));s.close()})')"
  echo "boot ($label) on port $port"
  # exec: the subshell becomes the service, so $! is the service's pid and `kill` stops it (without exec
  # the kill ended the subshell and left the service running after CI)
  (cd "$PROD" && exec env NODE_ENV=production HOST=127.0.0.1 PORT="$port" PUBLIC_BASE_URL="http://127.0.0.1:$port" \
    BOOTSTRAP_ADMIN_EMAIL=admin@ci.example BOOTSTRAP_ADMIN_PASSWORD="$PASSWORD" LOG_LEVEL=warn "$@" \
    node $NODE_FLAGS dist/src/main.js >"$WORK/$label.log" 2>&1) &
  PID=$!
  PORT="$port" PASSWORD="$PASSWORD" SERVICE_PID="$PID" node --input-type=module -e '
    const base = `http://127.0.0.1:${process.env.PORT}`;
    const deadline = Date.now() + 90_000;
    let ready = false;
    const alive = () => { try { process.kill(Number(process.env.SERVICE_PID), 0); return true; } catch { return false; } };
    while (Date.now() < deadline && alive()) {
      try { if ((await fetch(`${base}/API/auth/readyz/`)).ok) { ready = true; break; } } catch {}
      await new Promise((r) => setTimeout(r, 500));
    }
    if (!ready) { console.error(alive() ? "not ready within 90 s" : "the service exited"); process.exit(1); }
    const res = await fetch(`${base}/API/auth/v1/auth/simple/login/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@ci.example", password: process.env.PASSWORD }),
    });
    const body = await res.json();
    if (res.status !== 201 || typeof body.token !== "string") {
      console.error("sign-in failed", res.status, JSON.stringify(body));
      process.exit(1);
    }
    const me = await fetch(`${base}/API/auth/v1/auth/token/`, { headers: { authorization: `Bearer ${body.token}` } });
    if (me.status !== 200) { console.error("token validation failed", me.status); process.exit(1); }
    console.log("ready, signed in, token validated");
  ' || { echo "---- $label log"; tail -40 "$WORK/$label.log"; exit 1; }
  kill "$PID"
  wait "$PID" 2>/dev/null || true
  PID=""
}

boot_and_check pglite DATA_DIR="$WORK/data"

DB="portcullis_boot_$(node -e 'process.stdout.write(require("crypto").randomBytes(6).toString("hex"))')"
pg_admin "CREATE DATABASE $DB"
DB_URL="$(node -e 'const u = new URL(process.argv[1]); u.pathname = "/" + process.argv[2]; process.stdout.write(u.toString())' "$PG_SERVER_URL" "$DB")"
boot_and_check postgres DATABASE_URL="$DB_URL" REDIS_URL="$REDIS" \
  KEY_ENCRYPTION_SECRET="ci-boot-key-encryption-secret-$PASSWORD" DATA_DIR="$WORK/data-pg"
echo "production tree boots on PGlite and on PostgreSQL + Redis"
