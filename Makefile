# SPDX-License-Identifier: GPL-2.0
# multisched: the two commands of the README, and the steps behind them.

.PHONY: demo check setup build kernel export clean

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

clean:
	rm -rf build
