# SPDX-License-Identifier: GPL-2.0
#
# 64-bit little-endian MIPS on QEMU's Malta with an I6400 (MIPS64 Release
# 6), whose Coherent Processing System has a Coherence Manager: one core
# with two VPs, so two CPUs (QEMU reports one core in GCR_CONFIG; Linux
# finds the second CPU as a VP of that core).
#
# clocksource=GIC: before v6.11 Linux may rate the per-VP CP0 Count above
# the GIC's shared counter, and under QEMU the second VP's Count falls
# behind the first's, which stalls that CPU's timers; later kernels pick
# the GIC by themselves.
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
CONFIG_POWER_RESET_SYSCON=y''',
			   qemu_arch='mips64el',
			   kernel_path='vmlinux',
			   kernel_command_line='console=ttyS0 clocksource=GIC',
			   extra_qemu_params=['-M', 'malta', '-cpu', 'I6400',
					      '-smp', '2'])
