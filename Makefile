# SPDX-License-Identifier: GPL-2.0
# multisched: the two commands of the README, and the steps behind them.

.PHONY: demo check setup build kernel export series-check clean install-tests tests-tarball \
	stress stress-baseline bench-rbs bench-rbs-ctl bench-classes bench-wakeup \
	bench-pick bench-kernel

demo:
	scripts/demo

check:
	scripts/check

setup:
	scripts/setup

build: setup
	scripts/build all

kernel: setup
	scripts/build kernel

export: build
	scripts/export-patch build/multisched.patch

# Not part of check: builds kernel/sched/ after each mail of the review
# series (scripts/export-patch --series), which takes a while.
series-check: kernel
	scripts/series-check

# Not part of check: the churn campaign for 30 minutes under KASAN, UBSAN
# and lockdep, on the patched kernel and on an unpatched one built from the
# same configuration, their verdicts side by side (scripts/stress).
stress:
	scripts/stress both

stress-baseline:
	scripts/stress baseline

# Not part of check: Quest's figures 4 and 5 (an I/O server as PIBS and as
# a sporadic server, over a unix socket) and figure 7 (the cost of
# scheduling against the number of reservations, RBS against
# SCHED_DEADLINE, the threads started together, then one after the
# other), in a one-CPU boot of the benchmark kernel with
# --icount; then the disk half of figures 4 and 5 under threadirqs, on
# the benchmark kernel under the wall clock. Each times the class's code
# with the function profiler, which the benchmark kernel has.
# Documentation/scheduler/sched-rbs.rst has the tables and their time.
bench-rbs: build bench-kernel
	MS_NO_BUILD=1 scripts/qemu-run --smp 1 --mem 2G --icount --timeout 2400 \
		--kernel $(or $(KERNEL),$(BENCH_KERNEL)) -- \
		sh -c '/tests/rbs_overhead io && /tests/rbs_overhead -t -w 3 && \
		/tests/rbs_overhead -w 3'
	MS_NO_BUILD=1 scripts/qemu-run --smp 1 --mem 2G --timeout 600 \
		--kernel $(or $(KERNEL),$(BENCH_KERNEL)) \
		--disk 64M --append threadirqs -- /tests/rbs_overhead disk

# Not part of check: figure 5 of the RBS feedback paper, the controller's
# CPU time a second with 1 to 100 controlled threads, measured in the
# kernel, in a 2-CPU boot of the benchmark kernel with --icount (its
# clock counts instructions: no lockdep, no TCG stalls).
# Documentation/scheduler/sched-rbs-ctl.rst has the table.
bench-rbs-ctl: build bench-kernel
	MS_NO_BUILD=1 scripts/qemu-run --smp 2 --mem 2G --icount --timeout 900 \
		--kernel $(or $(KERNEL),$(BENCH_KERNEL)) -- \
		/tests/rbs_ctl overhead 1 10 20 40 100

# The benchmark kernel: the same patched tree built in build/bench with
# scripts/kconfig/bench.config in place of debug.config (no lockdep).
BENCH_KERNEL = build/bench/linux/arch/x86/boot/bzImage
bench-kernel:
	MS_BUILD=$(CURDIR)/build/bench MS_FLAVOUR=bench scripts/build kernel

# Not part of check: perf bench sched pipe and messaging and hackbench
# (processes, threads) with every task in EEVDF, BVT and VTRR, 5 rounds
# interleaved in one 2-CPU boot of the benchmark kernel (or KERNEL),
# medians and their ratios to EEVDF (tests/guest/bench_classes.sh; the
# tables are in sched-bvt.rst). --icount: the guest's times count
# instructions, which TCG's host stalls do not stretch.
bench-classes: build bench-kernel
	MS_NO_BUILD=1 scripts/qemu-run --smp 2 --mem 2G --icount --timeout 3000 \
		--kernel $(or $(KERNEL),$(BENCH_KERNEL)) -- /tests/bench_classes.sh 5

# Not part of check: the time of a waking task's placement
# (->select_task_rq()) under hackbench, BVT and VTRR against EEVDF, 5
# rounds interleaved in one boot of 2 and one of 8 virtual CPUs, in one
# host thread for the tracer (tests/guest/bench_wakeup.sh; the table is
# in sched-multisched.rst).
bench-wakeup: build
	MS_NO_BUILD=1 scripts/qemu-run --smp 2 --mem 2G --tcg-single \
		--timeout 1800 -- /tests/bench_wakeup.sh 5
	MS_NO_BUILD=1 scripts/qemu-run --smp 8 --mem 2G --tcg-single \
		--timeout 3600 -- /tests/bench_wakeup.sh 5

# Not part of check: the cost of BVT's pick (pick_task_bvt) against
# EEVDF's with 1 to 10000 runnable threads, 3 rounds, in one boot with the
# virtual CPUs in one host thread (tests/guest/vtrr_overhead.c -c bvt;
# the table is in sched-bvt.rst). KERNEL=path/to/bzImage measures another
# kernel, e.g. one built before a change.
bench-pick: build
	MS_NO_BUILD=1 scripts/qemu-run --tcg-single --mem 2G --timeout 3000 \
		$(if $(KERNEL),--kernel $(KERNEL)) -- \
		sh -c 'echo 30000 > /proc/sys/kernel/threads-max && /tests/vtrr_overhead -c bvt -R 3 1 10 100 1000 10000'

# For a machine booted into the patched kernel (README, "On real hardware"):
# schedctl in PREFIX/bin, its manual page, and the static test programs and
# guest scripts (demo.sh, run-tests.sh, ...) in PREFIX/lib/multisched/tests.
PREFIX ?= /usr/local
DESTDIR ?=

install-tests:
	scripts/build user
	install -D -m 755 build/user/schedctl $(DESTDIR)$(PREFIX)/bin/schedctl
	install -D -m 644 tools/schedctl/schedctl.8 $(DESTDIR)$(PREFIX)/share/man/man8/schedctl.8
	$(MAKE) -s -C tests/guest install HDR=$(CURDIR)/build/hdr/include \
		O=$(CURDIR)/build/user DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) \
		TESTDIR=$(PREFIX)/lib/multisched/tests

# The same tree as one directory, multisched-tests/{bin,lib,share}, in
# build/multisched-tests.tar.gz: unpack it anywhere and run
# multisched-tests/lib/multisched/tests/demo.sh, or unpack it into
# /usr/local with --strip-components=1.
tests-tarball:
	rm -rf build/tests-tarball
	$(MAKE) -s install-tests DESTDIR=$(CURDIR)/build/tests-tarball PREFIX=/multisched-tests
	tar -C build/tests-tarball --owner=0 --group=0 -czf build/multisched-tests.tar.gz multisched-tests
	@echo build/multisched-tests.tar.gz

clean:
	rm -rf build
