/*
 * checkcuda's benchmark kernels
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

/*
 * Kernels that only checkcuda --bench runs, built into a PTX of their own
 * (tests/fate/c63-gpu.mak) that checkcuda embeds, so that none of them is in
 * the libraries:
 *
 *   c63_peak_sad     a tight __vsadu4 loop, to measure the peak rate of
 *                    byte absolute differences that the motion searches'
 *                    rates are given against
 */

#include "cuda_compat.h"

typedef unsigned int u32;

/* One iteration of c63_peak_sad. */
static __device__ __forceinline__ void c63_peak_step(u32 a[8], u32 s[8], u32 b)
{
#pragma unroll
    for (int i = 0; i < 8; i++) {
        s[i] = ffc_vsadu4_add(a[i], b, s[i]);
        a[i] += 0x01010101u;
    }
}

/*
 * Peak byte absolute difference rate: each thread runs n iterations of
 * 8 independent __vsadu4 (4 byte differences each) and writes the sum so
 * that nothing is optimised away. The loop is unrolled by hand: clang does
 * not unroll a loop of inline asm by a runtime count.
 */
extern "C" __global__ void c63_peak_sad(u32 *out, u32 seed, int n)
{
    u32 a[8], s[8];
    const u32 b = seed * 0x9E3779B9u ^ (blockIdx.x * blockDim.x + threadIdx.x);

#pragma unroll
    for (int i = 0; i < 8; i++) {
        a[i] = b * (2 * i + 1);
        s[i] = 0;
    }
    int it = 0;
#pragma unroll 1
    for (; n - it >= 4; it += 4) {
        c63_peak_step(a, s, b);
        c63_peak_step(a, s, b);
        c63_peak_step(a, s, b);
        c63_peak_step(a, s, b);
    }
#pragma unroll 1
    for (; it < n; it++)
        c63_peak_step(a, s, b);
    out[blockIdx.x * blockDim.x + threadIdx.x] =
        s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7];
}
