# SPDX-License-Identifier: GPL-2.0
#
# Entry points for people. Kernel objects are described in Kbuild, which
# kbuild reads instead of this file in an external-module build.
#
#   make demo      the main job (see README)
#   make check     every test that fits CI: kunit cross extmod lint
#   make setup     packages, kernel tree, our links and patches
#   make kunit     KUnit suites on x86_64 under QEMU
#   make cross     cross builds with W=1 -Werror and sparse (TARGETS="...")
#   make lint      checkpatch --strict and kernel-doc on our files
#   make extmod    external-module build (sparc64) from a link farm
#   make modules   external-module build of this directory against $(KDIR)
#   make clean     remove build/ (the unpacked kernel in .cache/ stays)

TESTING := tools/testing/hvpmu
CHECK := $(TESTING)/check.sh

.PHONY: demo check setup kunit cross lint extmod modules clean

demo:
	@$(CHECK) kunit

check:
	@$(CHECK)

setup:
	@$(TESTING)/setup.sh

kunit cross lint extmod:
	@$(CHECK) $@

# For a user's own, prepared kernel build: make modules KDIR=/path/to/build
modules:
	$(if $(KDIR),,$(error set KDIR to a prepared kernel tree))
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	rm -rf build
