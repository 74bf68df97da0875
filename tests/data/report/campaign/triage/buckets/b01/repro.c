/* Test fixture for `dmafuzz report`: stands in for the C reproducer that
 * `dmafuzz emit-c` writes for bucket b01 (handle.reuse/handle@L2). */
#include <stdio.h>

int main(void)
{
	/* A rank-1 copy of 2 bytes, L3 -> L2, on the ram engine with the
	 * async-shared policy and double buffering: the second sub-copy
	 * re-issues the request of the first before its wait. */
	puts("handle.reuse: request re-issued while in flight");
	return 1;
}
