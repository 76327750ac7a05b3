#!/usr/bin/env bash
# Tabletop's one entry point on a fresh Debian machine.
#
#   ./tabletop.sh demo [GAME]     set everything up, then play a whole simulated game
#   ./tabletop.sh test [ARGS]     set everything up, then ruff, mypy and the whole test suite (pytest ARGS)
#   ./tabletop.sh setup           only install: Debian packages (apt-get) and .venv with the test tools
#   ./tabletop.sh CMD [ARGS]      any other `tabletop` sub-command, after the set-up
#
# Idempotent: a second run installs nothing and starts at once. `demo` and the other commands
# install only what playing needs; `test` and `setup` add the test, lint and training tools (torch).
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(pwd)
VENV="$ROOT/.venv"

say() { printf '\033[1m[tabletop]\033[0m %s\n' "$*" >&2; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        say "need root to run: $*"; return 1; fi
}

install_debian_packages() {
    local wanted missing=()
    wanted=$(sed -e 's/#.*//' -e '/^\s*$/d' scripts/apt-packages.txt)
    for pkg in $wanted; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if ! command -v apt-get >/dev/null; then
        say "not a Debian system: please install ${missing[*]} by hand"; return 0
    fi
    say "installing Debian packages: ${missing[*]}"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

install_python_packages() {   # $1: "play" (what the table needs) or "dev" (tests, lint, training too)
    local level=${1:-play} want spec
    want=$(cat pyproject.toml | sha256sum | cut -c1-16)
    if [ ! -x "$VENV/bin/python" ]; then
        say "creating $VENV"
        python3 -m venv "$VENV"
    fi
    # the play set is a part of the dev set: a venv made for the tests needs nothing for a demo
    if [ "$(cat "$VENV/.tabletop-installed-$level" 2>/dev/null)" = "$want" ] \
        || [ "$(cat "$VENV/.tabletop-installed-dev" 2>/dev/null)" = "$want" ]; then
        return 0
    fi
    spec="."
    [ "$level" = dev ] && spec=".[dev]"
    say "installing Python packages into .venv ($level)"
    "$VENV/bin/python" -m pip install -q --upgrade pip
    "$VENV/bin/python" -m pip install -q -e "$spec"
    echo "$want" > "$VENV/.tabletop-installed-$level"
}

setup() {
    install_debian_packages
    install_python_packages "${1:-play}"
}

cmd=${1:-demo}
[ $# -gt 0 ] && shift
case "$cmd" in
    setup) setup dev ;;
    test)
        setup dev
        export PYTHONDONTWRITEBYTECODE=1
        say "lint: ruff check"
        "$VENV/bin/ruff" check .
        say "types: mypy (strict for rules/ and firmware_bridge/)"
        "$VENV/bin/mypy"
        set +e
        "$VENV/bin/python" -m pytest "$@"
        rc=$?
        set -e
        [ $rc -eq 5 ] && { say "pytest collected no tests"; exit 1; }
        exit $rc ;;
    *)
        setup
        exec "$VENV/bin/tabletop" "$cmd" "$@" ;;
esac
