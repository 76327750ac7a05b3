#!/usr/bin/env bash
# Installs the handwriting fonts listed in scripts/handwriting-fonts.txt into .fonts/ (npm
# packages from the npm registry). Only scripts/train_letters.py needs them.
# With "uk", those with Cyrillic capitals listed in scripts/handwriting-fonts-uk.txt go into
# .fonts-uk/ instead (scripts/train_letters_uk.py --font-scenes; apart, so that the Latin
# training's set of fonts does not change).
#
#   scripts/fetch_fonts.sh        idempotent: a second run installs nothing
#   scripts/fetch_fonts.sh uk
set -euo pipefail
cd "$(dirname "$0")/.."
list=scripts/handwriting-fonts.txt
dir=.fonts
if [ "${1:-}" = uk ]; then
    list=scripts/handwriting-fonts-uk.txt
    dir=.fonts-uk
fi
if ! command -v npm >/dev/null; then
    echo "fetch_fonts.sh: needs npm (on Debian: apt-get install npm)" >&2
    exit 1
fi
mapfile -t packages < <(sed -e 's/#.*//' -e '/^\s*$/d' "$list")
mkdir -p "$dir"
[ -f "$dir/package.json" ] || echo '{"private": true}' > "$dir/package.json"
npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "${packages[@]}"
echo "fetch_fonts.sh: ${#packages[@]} font families in $dir/" >&2
