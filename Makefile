# SPDX-License-Identifier: GPL-2.0
#
# lockblame's user-facing entry point. Kbuild says what the module is made of;
# this file builds, installs, checks and demonstrates it.
#
#   make [module]            build lockblame.ko for the running kernel (or KDIR=)
#   make kunit               also build kunit/lockblame_kunit.ko (needs a KUNIT=m kernel)
#   make install             install lockblame.ko into /lib/modules/<release>/extra
#   make dkms-install        copy the module sources to /usr/src/lockblame-<version>
#   make style | sparse      checkpatch --strict | sparse, on our sources
#   make check               everything: builds, static checks, packages, six QEMU lanes
#   make check-quick         host tests, builds, static checks and the 6.12 lane (LANES=)
#   make check-repeat REPEAT=10  the QEMU lanes (LANES=) REPEAT times: pass rates of flaky checks
#   make demo                boot Debian's 6.12 in QEMU and watch lockblame work
#   make bench               the cost of lockblame: lb-bench ratios, scaling, stress-ng capacity
#   make deb                 Debian packages lockblame-dkms and lockblame-tools (build/deb)
#   make torture             long reliability runs: fuzzing, load cycles, hotplug (6.1, 6.12, debug, 4 vCPUs)
#   make clean

# The one place lockblame's version is written (dkms.conf gets it from here).
LOCKBLAME_VERSION := 0.1.0

KERNELRELEASE ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KERNELRELEASE)/build
# The release actually built for, which differs from KERNELRELEASE when only KDIR
# is given (UTS_RELEASE: Debian's 6.1 headers say 6.1.192 in kernel.release).
MODULE_RELEASE = $(or $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null),$(KERNELRELEASE))
INSTALL_MOD_PATH ?=
DEPMOD ?= depmod
PREFIX ?= /usr
DESTDIR ?=
DKMSDIR ?= $(PREFIX)/src/lockblame-$(LOCKBLAME_VERSION)
# `make demo DEMO=my-commands.sh` runs another guest script instead.
DEMO ?= tools/qemu/demo.sh

# What a DKMS tree holds: the module and what builds it; no tests, no tools.
DKMS_SOURCES = Kbuild Makefile $(sort $(shell find module include -type f \
	\( -name '*.[ch]' -o -name Kbuild -o -name '*.mk' \) 2>/dev/null))

KBUILD = $(MAKE) -C $(KDIR) LOCKBLAME_VERSION=$(LOCKBLAME_VERSION)

all: module

have-kdir:
	@test -f $(KDIR)/Makefile || { echo "lockblame: no kernel build tree at $(KDIR);" \
		"install linux-headers-$(KERNELRELEASE) or pass KDIR=" >&2; exit 1; }

module: have-kdir
	@$(KBUILD) M=$(CURDIR) modules

kunit: module
	@$(KBUILD) M=$(CURDIR)/kunit KBUILD_EXTRA_SYMBOLS=$(CURDIR)/Module.symvers modules

clean:
	@find . kunit module include -maxdepth 1 -type f \( -name '*.o' -o -name '*.ko' \
		-o -name '*.mod' -o -name '*.mod.c' -o -name '.*.cmd' -o -name '.*.d' \
		-o -name Module.symvers -o -name modules.order \) -delete 2>/dev/null; true

install: module
	@$(KBUILD) M=$(CURDIR) INSTALL_MOD_PATH=$(INSTALL_MOD_PATH) INSTALL_MOD_DIR=extra modules_install
	$(DEPMOD) -b "$(or $(INSTALL_MOD_PATH),/)" -a $(MODULE_RELEASE)

dkms-install:
	@for f in $(DKMS_SOURCES); do \
		install -D -m 0644 $$f "$(DESTDIR)$(DKMSDIR)/$$f" || exit 1; \
	done
	@sed 's/@LOCKBLAME_VERSION@/$(LOCKBLAME_VERSION)/' dkms.conf > "$(DESTDIR)$(DKMSDIR)/dkms.conf"
	@echo "lockblame $(LOCKBLAME_VERSION) copied to $(DESTDIR)$(DKMSDIR); now:" \
		"dkms add -m lockblame -v $(LOCKBLAME_VERSION) && dkms install -m lockblame -v $(LOCKBLAME_VERSION)"

style:
	@tools/checkpatch

sparse: have-kdir
	@$(KBUILD) M=$(CURDIR) C=2 CHECK=sparse modules

check:
	@tools/check

check-quick:
	@tools/check --quick

REPEAT ?= 10
check-repeat:
	@tools/check --repeat $(REPEAT)

demo:
	@tools/qemu/demo $(DEMO)

bench:
	@tools/bench/run

torture:
	@tools/torture/run

deb:
	@tools/deb/build $(DEBDIR)

print-version:
	@echo $(LOCKBLAME_VERSION)

.PHONY: all have-kdir module kunit clean install dkms-install style sparse check check-quick check-repeat demo bench torture deb print-version
