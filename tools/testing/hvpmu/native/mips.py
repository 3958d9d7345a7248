# SPDX-License-Identifier: GPL-2.0
#
# kunit.py --qemu_config for 64-bit little-endian MIPS on QEMU's malta with
# an I6400 (MIPS64r6) and the CPS: one core with two VPs behind a Coherence
# Manager (QEMU reports CM3) whose GCR block QEMU emulates without the
# performance counters.
#
# Two CPUs: QEMU's GCR_CONFIG reads 0 (one core), so the kernel can only
# find a second CPU as a second VP of that core, which it reads from
# GCR_Cx_CONFIG.PVPE on MIPSr6 cores with VPs (Config5.VP). The P5600 used
# before has no VPs: "VPE topology {1} total 1" whatever -smp says.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='mips',
			   kconfig='''
CONFIG_MIPS_MALTA=y
CONFIG_CPU_MIPS64_R6=y
CONFIG_64BIT=y
CONFIG_CPU_LITTLE_ENDIAN=y
CONFIG_SMP=y
CONFIG_MIPS_CPS=y
CONFIG_HOTPLUG_CPU=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_PCI=y
CONFIG_POWER_RESET=y
CONFIG_POWER_RESET_PIIX4_POWEROFF=y
CONFIG_POWER_RESET_SYSCON=y''',
			   qemu_arch='mips64el',
			   kernel_path='vmlinux',
			   kernel_command_line='console=ttyS0',
			   # kunit.py asks for kunit_shutdown=reboot; a second
			   # -append replaces the command line with one that powers
			   # off through the PIIX4 (POWER_RESET_PIIX4_POWEROFF, as
			   # in malta_defconfig; without it QEMU never exits).
			   #
			   # clocksource=GIC: 6.1 rates each VP's own CP0 Count
			   # above the GIC's shared counter. QEMU runs both VPs on
			   # one host thread, so CPU 1's Count starts up to a time
			   # slice behind CPU 0's, and a timekeeping read there can
			   # wrap ~26 s ahead; CPU 1's timers then wait and RCU
			   # reports a stall (e2e/mips/shim.patch, part 3, has the
			   # analysis; v6.11 rates the GIC first). The series alone
			   # runs here, so the choice is made on the command line:
			   # a no-op on 6.12, where the GIC already wins.
			   extra_qemu_params=['-M', 'malta', '-cpu', 'I6400',
					      '-smp', '2', '-append',
					      'kunit.enable=1 console=ttyS0 ignore_loglevel '
					      'clocksource=GIC kunit_shutdown=poweroff'])
