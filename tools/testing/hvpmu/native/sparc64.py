# SPDX-License-Identifier: GPL-2.0
#
# kunit.py --qemu_config for sparc64 (big-endian, 64-bit) on QEMU's sun4u
# machine: OpenBIOS, no sun4v hypervisor, one CPU (sun4u has no SMP).
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
			   kernel_command_line='console=ttyS0',
			   # kunit.py asks for kunit_shutdown=reboot, which
			   # OpenBIOS cannot do ("Reboot failed!" panic); a second
			   # -append replaces its command line with one that powers
			   # off through the sun4u power device instead.
			   extra_qemu_params=['-M', 'sun4u', '-m', '512',
					      '-append', 'kunit.enable=1 '
					      'console=ttyS0 kunit_shutdown=poweroff '
					      'ignore_loglevel'])
