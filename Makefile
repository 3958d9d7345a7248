# SPDX-License-Identifier: GPL-2.0
#
# Entry points for people. Kernel objects are described in Kbuild, which
# kbuild reads instead of this file in an external-module build.
#
#   make demo      the main job: boot the simulated platform, tour with perf
#                  (EXTRA=dir: your own scripts/binaries to run in the guest)
#   make check     the test command (fits CI's time): on Linux 6.12 KUnit,
#                  lint, cross, extmod, e2e, stress (x86_64; mips_cm's in
#                  check-full), e2e-ppc64, e2e-mips, e2e-sparc64 (their
#                  guests run the KUnit suites of the native tier); on 6.1
#                  KUnit, lint, cross and native (ppc64, sparc64, mips)
#   make check-full  every tier on both series (the results document
#                  reports it)
#   make setup     packages, the series, kernel trees with them applied
#   make patches   the series for the maintainers (tools/testing/hvpmu/series/)
#                  in build/patches/<base>/, each checked: git am on the
#                  pristine tree, checkpatch --strict, every patch builds;
#                  signed by you: the author and Signed-off-by of our
#                  patches are your git config user.name and user.email
#                  (it stops when either is unset). The harness (setup,
#                  check) needs no identity: it signs the series it makes
#                  for its trees with a throwaway one (HVPMU_SENDER, in
#                  build/test-patches/), which make patches never uses.
#   make test PMU=<name>  one PMU's KUnit suites and the real perf tool in
#                  the guest of its architecture: mips_cm (e2e-mips),
#                  hv_gpci (e2e-ppc64), niagara2_dram, vfalls_dram or
#                  niagara_mmustat (e2e-sparc64), through check.sh
#   make kunit     KUnit suites on x86_64 under QEMU (mips_cm's: e2e-mips, native)
#   make cross     cross builds of the series: W=1 and sparse, no warning in
#                  our files (TARGETS="...")
#   make lint      checkpatch --strict and kernel-doc on our files and on
#                  every patch of the series; dt_binding_check of its
#                  bindings; shellcheck of every script of the harness
#   make extmod    external-module build (sparc64) from a link farm
#   make e2e       the real perf tool in an x86_64 guest on the simulated platform
#                  (its sysfs checks compare with e2e/guest/sysfs-listing.txt;
#                  after a deliberate change, refresh it with: sed -n
#                  's/^    sysfs-listing: //p' build/<series>/e2e-x86_64.results.txt)
#   make e2e-ppc64 Linux's own hv_gpci with the series in a ppc64le and a
#                  big-endian ppc64 pseries guest, the real perf tool and
#                  the powerpc KUnit suites (EXTRA=dir: your own scripts)
#   make e2e-mips  mips_cm in a mips64el malta guest (CPS) on the simulated
#                  platform, the real perf tool (EXTRA=dir: your own scripts)
#   make e2e-sparc64  the sun4v PMUs in a sparc64 sun4u guest (one CPU,
#                  big-endian) on the simulated platform, the real perf tool
#                  (EXTRA=dir: your own scripts)
#   make stress    perf_event_open fuzzer under load in the x86_64 guest, and
#                  on mips_cm in the mips64el guest (STRESS_SECONDS=300)
#   make bench     a table of costs: read latency, hcalls per read, timer wakeups
#                  (mips_cm's from the mips64el guest, hv_gpci's from ppc64le)
#   make native    KUnit and the platform probes on ppc64 pseries, sparc64
#                  sun4u, mips malta
#   make modules   external-module build of this directory against $(KDIR)
#   make fresh     a debootstrapped Debian 12 root runs make demo and make check
#   make clean     remove build/ (the unpacked kernels in .cache/ stay)
#
# Every target but check, setup and patches runs on one kernel series:
# SERIES=6.12 (the default, the series the drivers are written for) or
# SERIES=6.1.

TESTING := tools/testing/hvpmu
CHECK := $(TESTING)/check.sh

.PHONY: demo check check-full setup patches test kunit cross lint extmod e2e e2e-ppc64 e2e-mips e2e-sparc64 stress bench native fresh modules clean

demo:
	@$(TESTING)/demo.sh $(EXTRA)

check:
	@$(CHECK)

check-full:
	@CHECK_FULL=1 $(CHECK)

setup:
	@$(TESTING)/setup.sh

fresh:
	@$(TESTING)/fresh.sh

# Both bases (6.12, then 6.1); BASES="6.1" picks one. Signed by git config's
# identity only: HVPMU_SENDER (the harness's) is dropped.
patches:
	@env -u HVPMU_SENDER $(TESTING)/patches.sh $(BASES)

# make test PMU=<name>: the tier of that PMU's architecture (see the top)
test:
	@case "$(PMU)" in \
	mips_cm) t=e2e-mips ;; \
	hv_gpci) t=e2e-ppc64 ;; \
	niagara2_dram|vfalls_dram|niagara_mmustat) t=e2e-sparc64 ;; \
	*) echo "make test PMU=<name>: mips_cm, hv_gpci, niagara2_dram, vfalls_dram or niagara_mmustat" >&2; \
	   exit 2 ;; \
	esac; SERIES=$${SERIES:-6.12} $(CHECK) $$t

kunit cross lint extmod e2e native:
	@SERIES=$${SERIES:-6.12} $(CHECK) $@

# E2E_PPC64_ENDIAN=le or be: one of the two guests
e2e-ppc64:
	@rc=0; for e in $${E2E_PPC64_ENDIAN:-le be}; do \
		SERIES=$${SERIES:-6.12} E2E_PPC64_ENDIAN=$$e \
			$(TESTING)/e2e/ppc64/run.sh $(EXTRA) || rc=1; \
	done; exit $$rc

e2e-mips:
	@SERIES=$${SERIES:-6.12} $(TESTING)/e2e/mips/run.sh $(EXTRA)

e2e-sparc64:
	@SERIES=$${SERIES:-6.12} $(TESTING)/e2e/sparc64/run.sh $(EXTRA)

# check.sh stress runs a one-minute stress; this one runs five (STRESS_SECONDS,
# STRESS_ATTRS, STRESS_SEED, STRESS_ARGS: see tools/testing/hvpmu/stress/run.sh)
stress:
	@SERIES=$${SERIES:-6.12} STRESS_SECONDS=$${STRESS_SECONDS:-300} $(CHECK) stress

bench:
	@$(TESTING)/bench/run.sh

# For a user's own, prepared kernel build: make modules KDIR=/path/to/build
modules:
	$(if $(KDIR),,$(error set KDIR to a prepared kernel tree))
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	rm -rf build
