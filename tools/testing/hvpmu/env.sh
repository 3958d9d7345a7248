# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the test scripts: where the repository, the kernel tree and the
# build directories are, and how to call the compiler.
#
# Environment: KDIR (kernel tree, default .cache/linux-6.1 made by setup.sh),
# BUILD (build directories, default build/), JOBS (make -j, default nproc).

HVPMU_TESTING=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HVPMU_TESTING/../../.." && pwd)
KDIR=${KDIR:-$REPO/.cache/linux-6.1}
BUILD=${BUILD:-$REPO/build}
JOBS=${JOBS:-$(nproc)}
CC_PREFIX=""
command -v ccache >/dev/null && CC_PREFIX="ccache "

# kunit_counts JSON: one "STATUS suite.test" line per test case of a
# kunit.py --json result (STATUS: PASS, FAIL, SKIP, ...).
kunit_counts() {
	python3 - "$1" <<'PY'
import json, sys
def walk(g, prefix):
    for t in g.get("test_cases", []):
        yield prefix + t["name"], t["status"]
    for s in g.get("sub_groups", []):
        yield from walk(s, prefix + s["name"] + ".")
for name, status in walk(json.load(open(sys.argv[1])), ""):
    print(status, name)
PY
}
