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
     * (FORMAT.md section 6).
     * @param coef  64 quantised coefficients, zigzag order
     * @param res   residual samples, natural order, row stride 8
     * @param q     quantisation table, zigzag order
     */
    void (*fdct_quant)(int16_t coef[64], const int16_t res[64], const uint8_t q[64]);

    /**
     * Dequantisation and inverse transform of one block (FORMAT.md 5,
     * steps 2-5 up to the int16 conversion).
     * @param res   reconstructed residual, natural order, row stride 8
     * @param coef  64 quantised coefficients, zigzag order
     */
    void (*dequant_idct)(int16_t res[64], const int16_t coef[64], const uint8_t q[64]);

    /** dst = clip(pred + res, 0, 255) for an 8x8 block; pred may be NULL (zero). */
    void (*add_pred)(uint8_t *dst, ptrdiff_t dst_stride,
                     const uint8_t *pred, ptrdiff_t pred_stride,
                     const int16_t res[64]);

    /** res = src - pred for an 8x8 block; pred may be NULL (zero). */
    void (*sub_pred)(int16_t res[64], const uint8_t *src, ptrdiff_t src_stride,
                     const uint8_t *pred, ptrdiff_t pred_stride);
} C63DSPContext;

void ff_c63dsp_init(C63DSPContext *c);

/* Straightforward transcriptions of the reference, kept as the references
 * that the optimised versions and the CUDA kernels are checked against. */
void ff_c63_fdct_quant_ref(int16_t coef[64], const int16_t res[64], const uint8_t q[64]);
void ff_c63_dequant_idct_ref(int16_t res[64], const int16_t coef[64], const uint8_t q[64]);

#endif /* AVCODEC_C63_C63DSP_H */
