/* SPDX-License-Identifier: MIT */
/* Out = In * Mul + Bias over the core's share of the tile. */
#include "ScaleBasicKernels.h"

void KerScale(KerScale_ArgT *Arg)
{
	unsigned int n = Arg->Size, share = (n + gap_ncore() - 1) / gap_ncore();
	unsigned int first = share * gap_coreid();
	unsigned int last = first + share < n ? first + share : n;

	for (unsigned int i = first; i < last; i++)
		Arg->Out[i] = (unsigned char)(Arg->In[i] * Arg->Mul[i % 64] + /* dfz-expect: READ */
					      Arg->Bias[i % 64]);
}
