/* SPDX-License-Identifier: MIT */
/*
 * A layer in the shape of AutoTiler-generated code (our own writing):
 * the input streams L3 -> L2 (HyperRAM, two L2 buffers) -> L1 (cluster
 * DMA, two L1 buffers), the output L1 -> L2 -> L3 the same way back; each
 * buffer picked by the tile count % 2, the write-back waits guarded by
 * the previous tiles' sizes, the constant tables loaded once by a command
 * and a merged copy. Clean as it is; two bugs are built by a file that
 * defines its name and includes this one: NO_WRITE_WAIT
 * (ScaleKernels_nowrite.c: the guarded wait of the previous tile's
 * L1 -> L2 write-back removed, so its L2 -> L3 copy reads a buffer still
 * in flight) and NO_READ_WAIT (ScaleKernels_noread.c: the wait on the
 * tile's L2 -> L1 load removed, so the cores compute on it in flight).
 */
#include "ScaleKernels.h"

L1_CL_MEM AT_L1_POINTER Scale_L1_Memory;
L2_MEM AT_L2_POINTER Scale_L2_Memory_Dyn;
AT_HYPERRAM_T HyperRam;

void S1_Scale(AT_HYPERRAM_POINTER In, AT_HYPERRAM_POINTER Out,
	      unsigned char *__restrict__ Bias,
	      unsigned char *__restrict__ Mul)
{
	AT_L2_EVENT _DmaR_Evt1, *DmaR_Evt1 = &_DmaR_Evt1;
	AT_L2_EVENT _DmaR_Evt2, *DmaR_Evt2 = &_DmaR_Evt2;
	AT_L2_EVENT _DmaW_Evt1, *DmaW_Evt1 = &_DmaW_Evt1;
	AT_HYPERRAM_CL_EVENT _UchanHR1, *UchanHR1 = &_UchanHR1;
	AT_HYPERRAM_CL_EVENT _UchanHR2, *UchanHR2 = &_UchanHR2;
	KerScale_ArgT S_KerArg0, *KerArg0 = &S_KerArg0;
	int D0Ind, D0Ind_Total = 0;
	unsigned int _P_Out, _C_Out;
	unsigned int _SPP_Out, _SP_Out, _SC_Out;
	unsigned int _NN_In;
	unsigned int _SN_In, _SNN_In;

	/*=========================== Call Kernel, Invariant assignment =====================*/
	KerArg0->Bias = (unsigned char *__restrict__) (Scale_L1_Memory+4*TILE);
	KerArg0->Mul = (unsigned char *__restrict__) (Scale_L1_Memory+4*TILE+64);
	KerArg0->Size = (unsigned int) (TILE);
	/*================================= Read Tiles Prolog ===============================*/
	_C_Out=0; _SC_Out=TILE;
	_SPP_Out=0; _SP_Out=0;
	AT_HYPERRAM_CL_COPY(&HyperRam, ((AT_HYPERRAM_EXT_ADDR_TYPE) In+0), ((AT_HYPERRAM_INT_ADDR_TYPE) Scale_L2_Memory_Dyn+0), TILE, 0, UchanHR1);
	AT_HYPERRAM_CL_WAIT(&HyperRam, UchanHR1); /* Wait previous uDMA read In */
	AT_HYPERRAM_CL_COPY(&HyperRam, ((AT_HYPERRAM_EXT_ADDR_TYPE) In+TILE), ((AT_HYPERRAM_INT_ADDR_TYPE) Scale_L2_Memory_Dyn+TILE), TILE, 0, UchanHR1);
	AT_L2_COPY(0, ((AT_HYPERRAM_INT_ADDR_TYPE) Scale_L2_Memory_Dyn+0), ((AT_L2_INT_ADDR_TYPE) Scale_L1_Memory+0), TILE, 0, DmaR_Evt1);
	_NN_In=TILE; _SN_In=TILE;
	AT_L2_COPY(0, ((AT_L2_EXT_ADDR_TYPE) Bias+0), ((AT_L2_INT_ADDR_TYPE) Scale_L1_Memory+4*TILE), 64, 0, DmaR_Evt2);
	AT_L2_COPY_MERGED(0, ((AT_L2_EXT_ADDR_TYPE) Mul+0), ((AT_L2_INT_ADDR_TYPE) Scale_L1_Memory+4*TILE+64), 64, 0, 0);
	AT_L2_WAIT(0, DmaR_Evt2); /* Wait previous DMA read Mul */
	/*============================= End Read Tiles Prolog ===============================*/
	for (D0Ind=0; D0Ind<NTILES; D0Ind++, D0Ind_Total++) { /* Iteration on D0 */
		int D0Ind_Last = (D0Ind==NTILES-1), D0Ind_NextLast = ((D0Ind+1)==NTILES-1);
		/*================================= Prepare Tiles ===================================*/
		_SNN_In = 0;
		if (!(D0Ind_Last)) {
			if (!(D0Ind_NextLast)) {
				_NN_In = _NN_In + (TILE); _SNN_In = (TILE);
			}
		}
		/*================================= Read Tiles ======================================*/
		AT_HYPERRAM_CL_WAIT(&HyperRam, UchanHR1); /* Wait previous uDMA read In */
#ifndef NO_READ_WAIT
		AT_L2_WAIT(0, DmaR_Evt1); /* Wait previous DMA read In */ /* dfz-expect: RWAIT */
#endif
		if (_SNN_In) {
			AT_HYPERRAM_CL_COPY(&HyperRam, ((AT_HYPERRAM_EXT_ADDR_TYPE) In+_NN_In), ((AT_HYPERRAM_INT_ADDR_TYPE) Scale_L2_Memory_Dyn+TILE*((D0Ind_Total)%2)),
					1*(_SNN_In), 0, UchanHR1);
		}
		if (_SN_In) {
			AT_L2_COPY(0, ((AT_HYPERRAM_INT_ADDR_TYPE) Scale_L2_Memory_Dyn+TILE*((D0Ind_Total+1)%2)), ((AT_L2_INT_ADDR_TYPE) Scale_L1_Memory+TILE*((D0Ind_Total+1)%2)),
					1*(_SN_In), 0, DmaR_Evt1);
		}
		/*============================= End Read Tiles ======================================*/
		/*====================== Call Kernel LOC_LOOP =========================*/
		KerArg0->In = (unsigned char *__restrict__) (Scale_L1_Memory+TILE*((D0Ind_Total)%2));
		KerArg0->Out = (unsigned char *__restrict__) (Scale_L1_Memory+2*TILE+TILE*((D0Ind_Total)%2));
		AT_FORK(gap_ncore(), (void *) KerScale, (void *) KerArg0);
		__CALL(KerScale, KerArg0);
		/*================================= Write Tiles =====================================*/
#ifndef NO_WRITE_WAIT
		if (_SP_Out) AT_L2_WAIT(0, DmaW_Evt1); /* Wait previous DMA write Out */ /* dfz-expect: WWAIT */
#endif
		if (_SPP_Out) AT_HYPERRAM_CL_WAIT(&HyperRam, UchanHR2); /* Wait previous uDMA write Out */
		if (_SP_Out) AT_HYPERRAM_CL_COPY(&HyperRam, ((AT_HYPERRAM_EXT_ADDR_TYPE) Out+_P_Out), ((AT_HYPERRAM_INT_ADDR_TYPE) Scale_L2_Memory_Dyn+2*TILE+TILE*((D0Ind_Total+-1)%2)), _SP_Out, 1, UchanHR2); /* dfz-expect: WB */
		AT_L2_COPY2D(0, ((AT_HYPERRAM_INT_ADDR_TYPE) Scale_L2_Memory_Dyn+2*TILE+TILE*((D0Ind_Total)%2)), ((AT_L2_INT_ADDR_TYPE) Scale_L1_Memory+2*TILE+TILE*((D0Ind_Total)%2)),
				_SC_Out, TILE/2, TILE/2, 1, DmaW_Evt1);
		/*================================= Update Arg Pipeline =============================*/
		_SPP_Out = _SP_Out;
		_P_Out = _C_Out;_SP_Out = _SC_Out;
		_SN_In = _SNN_In;
		/*================================= Prepare Tiles ===================================*/
		_SC_Out = 0;
		if (!(D0Ind_Last)) {
			_C_Out = _C_Out + (TILE); _SC_Out = (TILE);
		}
	} /* End iteration on D0 */
	/*================================ Write Tiles Epilog ===============================*/
	AT_L2_WAIT(0, DmaW_Evt1); /* Wait previous DMA write Out */
	if (_SPP_Out) AT_HYPERRAM_CL_WAIT(&HyperRam, UchanHR2); /* Wait previous uDMA write Out */
	AT_HYPERRAM_CL_COPY(&HyperRam, ((AT_HYPERRAM_EXT_ADDR_TYPE) Out+_P_Out), ((AT_HYPERRAM_INT_ADDR_TYPE) Scale_L2_Memory_Dyn+2*TILE+TILE*((D0Ind_Total+-1)%2)), _SP_Out, 1, UchanHR2);
	AT_HYPERRAM_CL_WAIT(&HyperRam, UchanHR2); /* Wait current uDMA write Out */
	/*============================ End Write Tiles Epilog ===============================*/
}
