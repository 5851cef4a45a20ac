#!/usr/bin/env bash
# bootstrap.sh -- from a fresh Debian or Ubuntu machine to a working Loom: installs the build
# dependencies, builds Loom, and runs a shipped example kernel through `loom run`.
#
#   ./bootstrap.sh                 install packages (through sudo unless root), build, run
#   sudo ./bootstrap.sh            the same; the build still runs as the user who ran sudo
#   ./bootstrap.sh --deps-only     install the packages and stop
#   ./bootstrap.sh --no-deps       build and run the example, install nothing
#
# Safe to run again: packages already installed are not fetched again, an existing build
# is updated rather than redone. Never reads stdin, so it runs under CI=true.
set -euo pipefail

packages=(build-essential autoconf automake libtool pkg-config libhwloc-dev libffi-dev check
          libzstd-dev liblz4-dev libreadline-dev python3 tmux)

deps=yes build=yes
for arg in "$@"; do
    case "$arg" in
        --deps-only) build=no ;;
        --no-deps) deps=no ;;
        -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bootstrap.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
    esac
done

cd "$(dirname "$0")"
exec </dev/null
say() { printf '\n==> %s\n' "$*"; }

# Runs a command as root: directly when we are root, else through sudo.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"
    elif command -v sudo >/dev/null; then sudo "$@"
    else echo "bootstrap.sh: need root to install packages: run it with sudo" >&2; exit 1
    fi
}

# Runs a build step as the user who invoked sudo, so the tree does not end up owned by root.
as_user() {
    if [ "$(id -u)" -eq 0 ] && [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
        sudo -u "$SUDO_USER" -- "$@"
    else
        "$@"
    fi
}

install_packages() {
    if ! command -v apt-get >/dev/null || ! command -v dpkg-query >/dev/null; then
        echo "bootstrap.sh: this is not a Debian-like system; install the equivalents of:" >&2
        echo "  ${packages[*]}" >&2
        exit 1
    fi
    local missing=()
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
            missing+=("$p")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        say "Debian packages: all ${#packages[@]} already installed"
        return
    fi
    say "Installing ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        "${missing[@]}"
}

build() {
    local jobs
    jobs=$(nproc 2>/dev/null || echo 2)
    if [ ! -x configure ]; then
        say "autoreconf -fi"
        as_user autoreconf -fi
    fi
    if [ ! -f Makefile ]; then
        say "./configure"
        as_user ./configure
    fi
    say "make -j$jobs"
    as_user make -j"$jobs"
}

# The example, as examples/saxpy/README.md runs it: saxpy, y = a*x + y over 1000 floats with
# a = 2, x[i] = i and y[i] = 1000 - i (y.bin), so y[i] becomes 1000 + i. y.out is removed after.
run_example() {
    say "Running examples/saxpy through loom run"
    (
        cd examples/saxpy
        as_user ../../loom run saxpy.ptx --kernel saxpy --grid 4 --block 256 s32:1000 f32:2.0 \
            in:f32:1000=iota 'inout:f32:1000=@y.bin>y.out'
        echo "y = 2 * x + y, first 12 of 1000 (expected 1000 + i):"
        as_user python3 ../show.py f32 y.out 12 --width 6
        rm -f y.out
    )
}

if [ "$deps" = yes ]; then install_packages; fi
if [ "$build" = yes ]; then
    build
    ./loom --version
    run_example
    say "Done. Next: 'make check' runs the whole test suite; './loom --help' lists the commands."
fi
