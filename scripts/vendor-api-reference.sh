#!/usr/bin/env bash
# Refresh the vendored API reference UI (vendor/api-reference/standalone.js): the prebuilt single-file browser
# bundle of @scalar/api-reference, taken from the package's own tarball without installing it. The package
# brings about 270 dependencies (150 MB, Node 22 only) that the bundle does not need at run time.
# Usage: bash scripts/vendor-api-reference.sh 1.72.1   (then load /v1/qc/docs: server/openapi/docs.browser.test.ts)
set -euo pipefail
version=${1:?usage: vendor-api-reference.sh VERSION}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tarball=$(cd "$tmp" && npm pack "@scalar/api-reference@$version" --silent)
tar -xzf "$tmp/$tarball" -C "$tmp" package/dist/browser/standalone.js
cp "$tmp/package/dist/browser/standalone.js" vendor/api-reference/standalone.js
echo "$version" > vendor/api-reference/VERSION
echo "vendored @scalar/api-reference $version: $(wc -c < vendor/api-reference/standalone.js) bytes"
