# SPDX-License-Identifier: GPL-2.0
#
# kunit.py --qemu_config: a 32-bit kernel (MIPS32 Release 6) on the MIPS
# series' mips64r6el machine (Malta, I6400, one core with two VPs behind a
# CM3): the CM accessors with 32-bit addresses and longs.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='mips',
			   kconfig='''
CONFIG_MIPS_MALTA=y
CONFIG_CPU_MIPS32_R6=y
CONFIG_32BIT=y
CONFIG_CPU_LITTLE_ENDIAN=y
CONFIG_SMP=y
CONFIG_MIPS_CPS=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_PCI=y
CONFIG_POWER_RESET=y
CONFIG_POWER_RESET_SYSCON=y''',
			   qemu_arch='mips64el',
			   kernel_path='vmlinux',
			   kernel_command_line='console=ttyS0 clocksource=GIC',
			   extra_qemu_params=['-M', 'malta', '-cpu', 'I6400',
					      '-smp', '2'])
