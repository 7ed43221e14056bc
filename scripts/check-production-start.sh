#!/usr/bin/env bash
# The production install starts: a clean copy of the committed tree, `npm ci --omit=dev`, then `npm start` on
# the embedded default until /healthz answers. Fails when start-up needs a devDependency, and when the install did
# not prepare the embedded database's template or the start did not use it (issue 27: the first start of a
# checkout copies the migrated database the install built instead of running initdb and every migration).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
pid=
# npm start runs bun as a child: stop the whole process group and let it finish its shutdown (it may still be
# writing the embedded database's next template, server/core/db/pglite-template.ts), then remove the copy.
stop() {
  [ -n "$pid" ] && kill -- "-$pid" 2>/dev/null || return 0
  for _ in $(seq 1 150); do kill -0 -- "-$pid" 2>/dev/null || return 0; sleep 0.2; done
  kill -9 -- "-$pid" 2>/dev/null || true
}
trap 'stop; rm -rf "$dir"' EXIT
git archive HEAD | tar -x -C "$dir"
(cd "$dir" && env -u QC_PGLITE_TEMPLATE_DIR npm ci --omit=dev --no-audit --no-fund --loglevel=error >"$dir/install.log" 2>&1) ||
  { echo "production start: npm ci failed"; tail -20 "$dir/install.log"; exit 1; }
ls -d "$dir"/node_modules/.cache/qc-pglite-template/pglite-* >/dev/null 2>&1 ||
  { echo "production start: npm ci did not prepare the embedded database template"; cat "$dir/install.log"; exit 1; }
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
(cd "$dir" && exec setsid env -u DATABASE_URL -u REDIS_URL -u QC_PGLITE_TEMPLATE_DIR -u QC_LOG_LEVEL PORT="$port" HOST=127.0.0.1 QC_DATA_DIR="$dir/.data" \
  npm start --silent >"$dir/start.log" 2>&1) &
pid=$!
for _ in $(seq 1 60); do
  if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then
    # Start-up says what it does (it was silent for seconds).
    grep -q '^starting: opening the embedded database' "$dir/start.log" || { echo "production start: no progress"; exit 1; }
    grep -q '"msg":"embedded database started from its template"' "$dir/start.log" ||
      { echo "production start: the start did not use the template npm ci prepared"; tail -20 "$dir/start.log"; exit 1; }
    echo "production start: ok"; exit 0
  fi
  sleep 1
done
echo "production start: /healthz never answered"; tail -20 "$dir/start.log"; exit 1
