# SPDX-License-Identifier: GPL-2.0
# multisched: the two commands of the README, and the steps behind them.

.PHONY: demo check setup build kernel export series-check clean

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

clean:
	rm -rf build
