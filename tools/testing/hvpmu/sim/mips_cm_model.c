// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated platform's copy of the model of the CM Global Debug Block:
 * the model exports nothing, so each module that uses it compiles it in,
 * as the KUnit suite's module does (drivers/perf/tests/Makefile).
 */
#include "tests/mips_cm_model.c"
