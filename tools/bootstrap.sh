#!/usr/bin/env bash
# Installs the Debian packages ringsim needs, and only those that are missing (safe to run again).
set -euo pipefail

packages=(
  cmake g++ make pkg-config
  libsimgrid-dev                      # SMPI, smpirun, tesh, simgrid.pc
  libboost-graph-dev libfmt-dev nlohmann-json3-dev doctest-dev
  openmpi-bin libopenmpi-dev          # the rank program's real-MPI twin
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "ringsim: all required packages are installed"
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null; then
    echo "ringsim: missing packages: ${missing[*]}; run as root or install them with apt-get" >&2
    exit 2
  fi
  sudo=(sudo)
fi
echo "ringsim: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
