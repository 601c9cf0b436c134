#!/usr/bin/env bash
# The benchmark matrix: tensorsh against NumPy, one command, one run, ratios
# (see bench/README.md). Arguments go to bench/matrix.py:
#   bench/matrix.sh [--quick] [--filter RE] [--rounds R] [--runs N] [--dry] [--readme]
# NumPy is Debian's (/usr/bin/python3, apt-get install python3-numpy), with
# OpenBLAS for its products (apt-get install libopenblas0-pthread: without
# it Debian's reference BLAS makes NumPy's matmul many times slower), and
# OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE unset for this command only, so that
# OpenBLAS picks its kernel for this CPU as a pip user's would.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
if ! /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  echo "bench/matrix.sh: needs Debian's python3-numpy (apt-get install python3-numpy)" >&2
  exit 1
fi
if ! ls /usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 >/dev/null 2>&1 &&
  ! ls /usr/lib/*/openblas-pthread/libblas.so.3 >/dev/null 2>&1; then
  echo "bench/matrix.sh: OpenBLAS not found: apt-get install -y libopenblas0-pthread (NumPy's matmul uses reference BLAS without it)" >&2
fi
exec env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 bench/matrix.py "$@"
