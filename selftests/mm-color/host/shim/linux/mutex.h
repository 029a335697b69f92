/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: see kernel.h. */
#include <linux/kernel.h>
