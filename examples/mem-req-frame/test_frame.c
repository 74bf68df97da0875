/* SPDX-License-Identifier: MIT */
/* loader.c with the request on start_load()'s stack. */
#define REQ_ON_STACK 1
#include "loader.c"
