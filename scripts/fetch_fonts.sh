#!/usr/bin/env bash
# Installs the handwriting fonts listed in scripts/handwriting-fonts.txt into .fonts/ (npm
# packages from the npm registry). Only scripts/train_letters.py needs them.
#
#   scripts/fetch_fonts.sh        idempotent: a second run installs nothing
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v npm >/dev/null; then
    echo "fetch_fonts.sh: needs npm (on Debian: apt-get install npm)" >&2
    exit 1
fi
mapfile -t packages < <(sed -e 's/#.*//' -e '/^\s*$/d' scripts/handwriting-fonts.txt)
mkdir -p .fonts
[ -f .fonts/package.json ] || echo '{"private": true}' > .fonts/package.json
npm install --prefix .fonts --no-audit --no-fund --loglevel=error "${packages[@]}"
echo "fetch_fonts.sh: ${#packages[@]} font families in .fonts/" >&2
