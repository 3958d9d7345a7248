#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# requests.sh HV-GPCI-REQUESTS.H [v6]: the named events Linux's hv_gpci
# lists, as "name event-string" lines, from the tree's own request table
# and req-gen macros (the host's preprocessor, none of the driver's code):
# the counter_info_version 8 list, or with v6 the list of version 6 and
# below (ENABLE_EVENTS_COUNTERINFO_V6). The ppc64 guest compares its
# events/ with them.
set -eu
h=$1
dir=$(dirname "$h")
top=$(cd "$dir/../../.." && pwd)
ver=$(sed -n 's/^#define COUNTER_INFO_VERSION_CURRENT //p' "$dir/hv-gpci.h")
v6=""
[ "${2:-}" = v6 ] && v6="-DENABLE_EVENTS_COUNTERINFO_V6"
# shellcheck disable=SC2086 # $v6 is one word or none
printf '%s\n' \
	'#define __field_(...)' '#define __array_(...)' \
	'#define REQUEST_(r_name, r_value, r_idx_1, r_fields) r_fields' \
	"#define __count_(r_name, r_value, r_idx_1, c_offset, c_size, c_name) \\" \
	'HVPMU_EVENT CAT3(r_name, _, c_name) "request=" __stringify(r_value) "," r_idx_1 ",counter_info_version=" __stringify(HVPMU_VER) ",length=" #c_size ",offset=" #c_offset' \
	'#define CAT3_(a, b, c) a ## b ## c' '#define CAT3(a, b, c) CAT3_(a, b, c)' \
	"#include \"$(basename "$h")\"" |
	gcc -E -P -x c $v6 -DHVPMU_VER="$ver" -I"$dir" -I"$top/include" - |
	sed 's/HVPMU_EVENT/\n&/g' |
	sed -n 's/^ *HVPMU_EVENT \([a-z0-9_]*\) /\1 /p' |
	sed -e 's/" *"//g' -e 's/"//g' -e 's/ *$//'
