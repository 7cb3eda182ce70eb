#!/usr/bin/env bash
# Installs the Debian packages ringsim needs, and only those that are missing (safe to run again).
set -euo pipefail

packages=(
  cmake g++ make ninja-build pkg-config
  libsimgrid-dev                      # SMPI, smpirun, tesh, simgrid.pc
  libboost-context-dev                # the maestro engine's rank fibers
  curl xz-utils                       # SimGrid's private headers for the maestro engine (below)
  libboost-graph-dev libfmt-dev nlohmann-json3-dev doctest-dev
  openmpi-bin libopenmpi-dev          # the rank program's real-MPI twin
  chromium                            # the test that ringsim report's plots render (headless)
  libpng16-16                         # that test decodes Chromium's screenshot with libpng (ctypes)
  clang libclang-rt-14-dev            # the sanitized build with libFuzzer (tools/check.sh, tools/fuzz.sh)
  lld                                 # which links it (CMakeLists.txt)
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
# npm fetches the plotting library of ringsim report (below); a NodeSource nodejs brings its own npm.
command -v npm >/dev/null || missing+=(npm)

# Plotly.js, which ringsim report inlines into its pages: the version tools/report-js/package-lock.json
# pins, from the npm registry, into tools/report-js/node_modules (not committed).
fetch_report_js() {
  local dir
  dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/report-js"
  [ -f "$dir/node_modules/plotly.js-cartesian-dist-min/plotly-cartesian.min.js" ] && return 0
  echo "ringsim: fetching Plotly.js for ringsim report (npm ci in $dir)"
  npm ci --prefix "$dir" --no-audit --no-fund >/dev/null
}

# The maestro engine (sim/maestro_mpi) reads private headers of SimGrid 3.32 (the maestro's activity
# list, a comm's rate bound, the network model that starts a transfer): taken from Debian's source of the installed version, checked against the checksum
# of Debian's simgrid_3.32-2.dsc, into tools/simgrid-source (not committed).
fetch_simgrid_headers() {
  local dir tarball
  dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/simgrid-source"
  [ -f "$dir/simgrid-3.32/src/kernel/resource/NetworkModel.hpp" ] && return 0
  echo "ringsim: fetching SimGrid 3.32's private headers into $dir"
  mkdir -p "$dir"
  tarball="$dir/simgrid_3.32.orig.tar.xz"
  # From the Debian mirror apt uses (its first deb URI), else deb.debian.org; the checksum decides.
  local mirror url fetched=0
  mirror=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk 'NR == 1 { print $2 }')
  [ -n "$mirror" ] || mirror=$(grep -hs '^deb ' /etc/apt/sources.list | awk 'NR == 1 { print $2 }')
  for url in ${mirror:+"${mirror%/}/pool/main/s/simgrid/simgrid_3.32.orig.tar.xz"} \
             https://deb.debian.org/debian/pool/main/s/simgrid/simgrid_3.32.orig.tar.xz; do
    if curl -fsSL --retry 3 -o "$tarball" "$url"; then fetched=1; break; fi
  done
  [ "$fetched" = 1 ] || { echo "ringsim: could not fetch SimGrid 3.32's source (simgrid_3.32.orig.tar.xz) from the Debian mirror" >&2; exit 2; }
  echo "4b413d8e9d9b29b8e086b2f3edaec5b1149d7eb52b2e134f1ed13d30891ece7b  $tarball" | sha256sum -c --quiet
  # Every header of src/: the network model's (NetworkModel.hpp) pulls in the max-min solver's and more.
  tar -xJf "$tarball" -C "$dir" --wildcards 'simgrid-3.32/src/*.hpp' 'simgrid-3.32/src/*.h'
  rm -f "$tarball"
}

if [ ${#missing[@]} -eq 0 ]; then
  echo "ringsim: all required packages are installed"
  fetch_report_js
  fetch_simgrid_headers
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
fetch_report_js
fetch_simgrid_headers
