# SPDX-License-Identifier: GPL-2.0
#
# kunit.py --qemu_config for 32-bit little-endian MIPS on QEMU's malta with a
# P5600 (MIPS32r5) and the CPS: two cores behind a Coherence Manager whose
# GCR block QEMU emulates without the performance counters.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='mips',
			   kconfig='''
CONFIG_MIPS_MALTA=y
CONFIG_CPU_MIPS32_R2=y
CONFIG_CPU_LITTLE_ENDIAN=y
CONFIG_SMP=y
CONFIG_MIPS_CPS=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_PCI=y
CONFIG_POWER_RESET=y
CONFIG_POWER_RESET_PIIX4_POWEROFF=y
CONFIG_POWER_RESET_SYSCON=y''',
			   qemu_arch='mipsel',
			   kernel_path='vmlinux',
			   kernel_command_line='console=ttyS0',
			   # kunit.py asks for kunit_shutdown=reboot; a second
			   # -append replaces the command line with one that powers
			   # off through the PIIX4 (POWER_RESET_PIIX4_POWEROFF, as
			   # in malta_defconfig; without it QEMU never exits).
			   extra_qemu_params=['-M', 'malta', '-cpu', 'P5600',
					      '-smp', '2', '-append',
					      'kunit.enable=1 console=ttyS0 '
					      'kunit_shutdown=poweroff'])
