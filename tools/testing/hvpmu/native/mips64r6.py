# SPDX-License-Identifier: GPL-2.0
#
# kunit.py --qemu_config: the MIPS series' mips64r6el configuration
# (Malta, I6400, one core with two VPs behind a CM3), big-endian: the
# layout on which a raw 32-bit read of a 64-bit GCR returns its high word.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='mips',
			   kconfig='''
CONFIG_MIPS_MALTA=y
CONFIG_CPU_MIPS64_R6=y
CONFIG_64BIT=y
CONFIG_CPU_BIG_ENDIAN=y
CONFIG_SMP=y
CONFIG_MIPS_CPS=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_PCI=y
CONFIG_POWER_RESET=y
CONFIG_POWER_RESET_SYSCON=y''',
			   qemu_arch='mips64',
			   kernel_path='vmlinux',
			   kernel_command_line='console=ttyS0 clocksource=GIC',
			   extra_qemu_params=['-M', 'malta', '-cpu', 'I6400',
					      '-smp', '2'])
