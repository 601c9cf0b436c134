#!/usr/bin/env bash
# Compare tensorsh's CPU backend with NumPy on the issue-8 expressions
# (see bench/README.md). Arguments go to bench/compare.py:
#   bench/run.sh [--rounds R] [--runs N] [--no-e2e] [--json]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
if ! /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  echo "bench/run.sh: needs Debian's python3-numpy (apt-get install python3-numpy)" >&2
  exit 1
fi
exec /usr/bin/python3 bench/compare.py "$@"
