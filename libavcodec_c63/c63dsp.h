/*
 * Codec63 DSP functions
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

#ifndef AVCODEC_C63_C63DSP_H
#define AVCODEC_C63_C63DSP_H

#include <stddef.h>
#include <stdint.h>

typedef struct C63DSPContext {
    /**
     * Forward transform and quantisation of one 8x8 residual block
     * (docs/c63-format.md section 7.5).
     * @param coef  64 quantised coefficients, zigzag order
     * @param res   residual samples, natural order, row stride 8
     * @param q     quantisation table, zigzag order
     */
    void (*fdct_quant)(int16_t coef[64], const int16_t res[64], const uint8_t q[64]);

    /**
     * Dequantisation and inverse transform of one block
     * (docs/c63-format.md sections 6.3 to 6.6 up to the int16 conversion),
     * then the residual added to the prediction as add_pred does: the
     * block's reconstruction.
     * @param dst   the reconstruction
     * @param pred  the prediction; may be NULL (zero)
     * @param coef  64 quantised coefficients, zigzag order
     * @param n     1 to 8: the coefficients outside the top-left n x n of
     *              the block (frequency rows and columns) are zero; 8 when
     *              that is not known. The result does not depend on n, only
     *              the work: the terms left out are products with zeros.
     */
    void (*dequant_idct_add)(uint8_t *dst, ptrdiff_t dst_stride,
                             const uint8_t *pred, ptrdiff_t pred_stride,
                             const int16_t coef[64], const uint8_t q[64], int n);

    /** dst = clip(pred + res, 0, 255) for an 8x8 block; pred may be NULL (zero). */
    void (*add_pred)(uint8_t *dst, ptrdiff_t dst_stride,
                     const uint8_t *pred, ptrdiff_t pred_stride,
                     const int16_t res[64]);

    /** res = src - pred for an 8x8 block; pred may be NULL (zero). */
    void (*sub_pred)(int16_t res[64], const uint8_t *src, ptrdiff_t src_stride,
                     const uint8_t *pred, ptrdiff_t pred_stride);

    /**
     * Full search of an 8x8 block over a window of candidates
     * (docs/c63-format.md section 7.3): the SAD of blk against the block at
     * ref + y * stride + x for 0 <= x < nx, 0 <= y < ny (1 <= nx, ny <= 128).
     * @param sums  sums of ref's 8x2 blocks at the same positions (stride
     *              stride; ff_c63_block_sums), for the lower bound of a SAD,
     *              the sum over k < 4 of |sum of blk's rows 2k, 2k + 1 -
     *              sums 2k rows down|; read up to 15 entries past a window
     *              row
     * @param seed  (y << 7) | x of a candidate to evaluate first (its SAD
     *              bounds the search from the start), or -1
     * @return (sad << 16) | (y << 7) | x of the smallest SAD, the first in
     *         scan order (y outer, x inner) among equals
     * The encoder calls it only where a SIMD version is set: in C, it
     * calls me_cmp's SAD per candidate instead, which is faster than
     * ff_c63_me_search_c().
     */
    uint32_t (*me_search)(const uint8_t *blk, const uint8_t *ref, ptrdiff_t stride,
                          int nx, int ny, const uint16_t *sums, int seed);

    /**
     * dst[x] = sum of the 8x2 block at src + x (row stride stride), for
     * 0 <= x < n, n a multiple of 16; reads rows 0 and 1 up to byte n + 7.
     * ff_c63_block_sums() keeps running sums for the rest of a row.
     */
    void (*block_sums)(uint16_t *dst, const uint8_t *src, ptrdiff_t stride, int n);
} C63DSPContext;

void ff_c63dsp_init(C63DSPContext *c);

/** The C version of C63DSPContext.me_search. */
uint32_t ff_c63_me_search_c(const uint8_t *blk, const uint8_t *ref, ptrdiff_t stride,
                            int nx, int ny, const uint16_t *sums, int seed);

/**
 * What dequant_idct gives for every sample of a block whose only non-zero
 * coefficient is the DC, dc (with q0 its quantiser): every product of the
 * inverse transform but the DC's is +-0 and T[.][0] = 1, so each output is
 * the scaled DC.
 */
int ff_c63_dc_residual(int dc, int q0);

/**
 * The forward transform of fdct_quant (in C), unquantised: z4[k] = 4 x the
 * scaled output at zigzag position k, rounded to nearest (the input of
 * c63_rd_quant()).
 */
void ff_c63_fdct_z4(int z4[64], const int16_t res[64]);

void ff_c63dsp_init_x86(C63DSPContext *c);

#endif /* AVCODEC_C63_C63DSP_H */
