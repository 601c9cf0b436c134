#!/usr/bin/env bash
# Everyday expressions outside the benchmark matrix, against NumPy (see
# bench/survey.py). Needs Debian's python3-numpy (apt-get install
# python3-numpy); OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE are unset for this
# command only, as for bench/matrix.sh.
#   bench/survey.sh [--filter RE]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
if ! /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  echo "bench/survey.sh: needs Debian's python3-numpy (apt-get install python3-numpy)" >&2
  exit 1
fi
bin="$(mktemp -d)/tensorsh"
go build -o "$bin" ./cmd/tensorsh
exec env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 bench/survey.py --binary "$bin" "$@"
