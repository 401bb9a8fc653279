/*
 * Codec63 DSP functions: x86 dispatch
 *
 * This file is part of FFmpeg.
 *
 * FFmpeg is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * FFmpeg is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with FFmpeg; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

#include "config.h"
#include "libavutil/attributes.h"
#include "libavutil/cpu.h"
#include "libavutil/x86/cpu.h"

#include "../c63dsp.h"

void ff_c63_sub_pred_sse2(int16_t res[64], const uint8_t *src, ptrdiff_t src_stride,
                          const uint8_t *pred, ptrdiff_t pred_stride);
void ff_c63_add_pred_sse2(uint8_t *dst, ptrdiff_t dst_stride,
                          const uint8_t *pred, ptrdiff_t pred_stride,
                          const int16_t res[64]);
void ff_c63_block_sums_avx2(uint16_t *dst, const uint8_t *src, ptrdiff_t stride, int n);
void ff_c63_fdct_quant_avx2(int16_t coef[64], const int16_t res[64], const uint8_t q[64]);
void ff_c63_dequant_idct_add_avx2(uint8_t *dst, ptrdiff_t dst_stride,
                                  const uint8_t *pred, ptrdiff_t pred_stride,
                                  const int16_t coef[64], const uint8_t q[64], int n);
uint32_t ff_c63_me_search_avx2(const uint8_t *blk, const uint8_t *ref, ptrdiff_t stride,
                               int nx, int ny, const uint16_t *sums, int seed);

av_cold void ff_c63dsp_init_x86(C63DSPContext *c)
{
    int cpu_flags = av_get_cpu_flags();

    if (EXTERNAL_SSE2(cpu_flags)) {
        c->sub_pred = ff_c63_sub_pred_sse2;
        c->add_pred = ff_c63_add_pred_sse2;
    }
#if ARCH_X86_64
    if (EXTERNAL_AVX2_FAST(cpu_flags)) {
        c->fdct_quant       = ff_c63_fdct_quant_avx2;
        c->dequant_idct_add = ff_c63_dequant_idct_add_avx2;
        c->me_search        = ff_c63_me_search_avx2;
        c->block_sums       = ff_c63_block_sums_avx2;
    }
#endif
}
