#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A threaded interrupt handler in an RBS I/O server (tests/guest/rbs_resv.c,
# irq): the interrupt thread of a virtio-blk disk, which exists only under
# threadirqs. Run in a boot of its own, which gives every interrupt a
# thread, and with a scratch disk:
#
#	scripts/qemu-run --smp 1 --disk 64M --append threadirqs -- /tests/rbs_irq.sh
#
# Prints one TAP line per check and exits 1 if any check failed.

. "$(dirname "$0")/tap.sh"

$T/rbs_resv -c 0 irq || fails=$((fails + 1))

exit $((fails > 0))
