# SPDX-License-Identifier: GPL-2.0
#
# sparc64 (64-bit, big-endian) on QEMU's sun4u machine, one CPU. Its
# OpenBIOS cannot reboot ("Reboot failed!" and a panic): power off.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='sparc',
			   kconfig='''
CONFIG_64BIT=y
CONFIG_SPARC64=y
CONFIG_PCI=y
CONFIG_SERIAL_SUNSU=y
CONFIG_SERIAL_SUNSU_CONSOLE=y''',
			   qemu_arch='sparc64',
			   kernel_path='arch/sparc/boot/image',
			   kernel_command_line='console=ttyS0 kunit_shutdown=poweroff',
			   extra_qemu_params=['-M', 'sun4u', '-m', '512'])
