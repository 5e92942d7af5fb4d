#!/usr/bin/env bash
# Installs the system packages NavReel builds against, only those that are missing.
# Debian/Ubuntu: apt-get (as root, or through sudo). macOS: Homebrew.
# Usage: scripts/setup.sh [extra Debian packages...]
set -euo pipefail

# FFmpeg's libraries decode animated GIF and PNG and video for `navreel compare`; the ffmpeg
# command makes the recordings the tests and the bundled captured example are built from.
# HarfBuzz shapes Arabic and Hebrew; libdeflate compresses baselines and inflates PNG image data
# and maps faster than zlib; patchelf lets the release build
# load HarfBuzz and FreeType only when text is drawn (scripts/build-release). Fonts ship with NavReel (Sources/NavReelFonts).
debian_packages=(pkg-config libpng-dev zlib1g-dev libdeflate-dev libfreetype-dev libharfbuzz-dev
                 libavformat-dev libavcodec-dev libswscale-dev libavutil-dev ffmpeg patchelf "$@")

if ! command -v swift >/dev/null 2>&1; then
    echo "navreel setup: Swift is not installed (https://www.swift.org/install/ ; Swift 6.1 or later)" >&2
    exit 2
fi

if [[ "$(uname -s)" == "Darwin" ]]; then
    missing=()
    for formula in libpng libdeflate freetype harfbuzz pkg-config ffmpeg; do
        brew list --formula "$formula" >/dev/null 2>&1 || missing+=("$formula")
    done
    if ((${#missing[@]})); then
        echo "navreel setup: brew install ${missing[*]}"
        brew install "${missing[@]}"
    fi
    exit 0
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "navreel setup: not a Debian system; install libpng, zlib, libdeflate, freetype, harfbuzz, FFmpeg (libraries and command) and pkg-config yourself" >&2
    exit 0
fi

missing=()
for package in "${debian_packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
((${#missing[@]})) || exit 0

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then sudo_cmd=(sudo); else
        echo "navreel setup: missing packages ${missing[*]}; run as root or install sudo" >&2
        exit 2
    fi
fi
echo "navreel setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
