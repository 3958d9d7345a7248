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
