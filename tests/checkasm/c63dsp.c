/*
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
 * Codec63 DSP functions (libavcodec/c63/c63dsp.h): every SIMD version
 * against the C one, on random input and at the extremes a hostile stream
 * or a flat picture gives. The C versions themselves are checked against
 * the course's reference programs by the c63 FATE tests.
 */

#include <string.h>

#include "config_components.h"

#include "libavutil/common.h"
#include "libavutil/mem_internal.h"

#include "libavcodec/mathops.h"
#include "libavcodec/c63/c63.h"
#include "libavcodec/c63/c63dsp.h"
#include "libavcodec/c63/c63me.h"

#include "checkasm.h"

#define ITER 512

/* the coefficients of a block: random within the top-left m x m (zigzag
 * order) and scaled down by shift, or a coefficient at an int16 limit */
static void random_coefs(int16_t coef[64], int iter)
{
    const int m = 1 + iter % 8, shift = iter & 8 ? 0 : 4;

    for (int k = 0; k < 64; k++)
        coef[k] = (ff_zigzag_direct[k] >> 3) < m && (ff_zigzag_direct[k] & 7) < m ?
                  (int)(rnd() % 601) - 300 >> shift : 0;
    if (iter % 16 == 5)
        memset(coef + 1, 0, 63 * sizeof(*coef));    /* DC only */
    if (iter < 128)
        coef[iter % 64] = iter & 64 ? -32768 : 32767;
}

/* the smallest n such that the coefficients outside the top-left n x n
 * (zigzag order) are zero: what the decoder passes */
static int coef_bound(const int16_t coef[64])
{
    int n = 1;

    for (int k = 0; k < 64; k++)
        if (coef[k])
            n = FFMAX3(n, 1 + (ff_zigzag_direct[k] >> 3), 1 + (ff_zigzag_direct[k] & 7));
    return n;
}

static void fill(uint8_t *buf, int size, int mode)
{
    for (int i = 0; i < size; i++)
        buf[i] = mode == 1 ? 0 : mode == 2 ? 255 : mode == 3 ? rnd() & 0x81 : rnd();
}

static void check_fdct_quant(const C63DSPContext *c, const uint8_t q[3][64])
{
    LOCAL_ALIGNED_32(int16_t, res, [64]);
    LOCAL_ALIGNED_32(int16_t, coef0, [64]);
    LOCAL_ALIGNED_32(int16_t, coef1, [64]);
    declare_func(void, int16_t coef[64], const int16_t res[64], const uint8_t q[64]);

    if (!check_func(c->fdct_quant, "c63_fdct_quant"))
        return;
    for (int iter = 0; iter < ITER; iter++) {
        const int range = 255 >> (iter % 4 * 2);
        for (int i = 0; i < 64; i++) {
            res[i] = (int)(rnd() % (2 * range + 1)) - (iter & 1 ? range : 0);
            if (iter < 8)           /* both ends, and a checkerboard of them */
                res[i] = (iter & 1 ? -255 : 255) * (iter & 2 && (i ^ i >> 3) & 1 ? -1 : 1);
            else if (iter < 16)     /* an impulse */
                res[i] = i == iter - 8 ? 255 : 0;
        }
        call_ref(coef0, res, q[iter % 3]);
        call_new(coef1, res, q[iter % 3]);
        if (memcmp(coef0, coef1, 64 * sizeof(*coef0))) {
            fail();
            break;
        }
    }
    bench_new(coef1, res, q[0]);
}

static void check_dequant_idct_add(const C63DSPContext *c, const uint8_t q[3][64])
{
    enum { STRIDE = 32, SIZE = 10 * STRIDE };
    LOCAL_ALIGNED_32(int16_t, coef, [64]);
    LOCAL_ALIGNED_32(uint8_t, pred, [SIZE]);
    LOCAL_ALIGNED_32(uint8_t, dst0, [SIZE]);
    LOCAL_ALIGNED_32(uint8_t, dst1, [SIZE]);
    declare_func(void, uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *pred,
                 ptrdiff_t pred_stride, const int16_t coef[64], const uint8_t q[64], int n);

    if (!check_func(c->dequant_idct_add, "c63_dequant_idct_add"))
        return;
    for (int iter = 0; iter < ITER; iter++) {
        const int off = STRIDE + iter % 5, mode = iter / 3 % 5;
        const uint8_t *p = mode == 4 ? NULL : pred + STRIDE + iter % 7;
        const uint8_t *qt = q[iter % 3];
        int bound;

        random_coefs(coef, iter);
        bound = coef_bound(coef);
        fill(pred, SIZE, mode);
        /* the exact bound, every larger one, and 8 (not known): the same
         * result, and no sample outside the block written */
        for (int n = bound; n <= 8; n++) {
            memset(dst0, 7, SIZE);
            memset(dst1, 7, SIZE);
            call_ref(dst0 + off, STRIDE, p, STRIDE, coef, qt, 8);
            call_new(dst1 + off, STRIDE, p, STRIDE, coef, qt, n);
            if (memcmp(dst0, dst1, SIZE)) {
                fail();
                iter = ITER;
                break;
            }
        }
    }
    random_coefs(coef, 128 + 7);
    fill(pred, SIZE, 0);
    bench_new(dst1 + STRIDE, STRIDE, pred + STRIDE, STRIDE, coef, q[0], 8);
}

static void check_sub_pred(const C63DSPContext *c)
{
    enum { STRIDE = 32, SIZE = 9 * STRIDE };
    LOCAL_ALIGNED_32(uint8_t, src, [SIZE]);
    LOCAL_ALIGNED_32(uint8_t, pred, [SIZE]);
    LOCAL_ALIGNED_32(int16_t, res0, [64]);
    LOCAL_ALIGNED_32(int16_t, res1, [64]);

    if (check_func(c->sub_pred, "c63_sub_pred")) {
        declare_func(void, int16_t res[64], const uint8_t *src, ptrdiff_t src_stride,
                     const uint8_t *pred, ptrdiff_t pred_stride);
        for (int iter = 0; iter < ITER; iter++) {
            const int mode = iter % 4;
            const uint8_t *p = iter % 3 == 0 ? NULL : pred + iter % 8;
            fill(src,  SIZE, mode);
            fill(pred, SIZE, mode == 1 ? 2 : mode == 2 ? 1 : mode);
            memset(res0, 0x55, 64 * sizeof(*res0));
            memset(res1, 0x55, 64 * sizeof(*res1));
            call_ref(res0, src + iter % 5, STRIDE, p, STRIDE);
            call_new(res1, src + iter % 5, STRIDE, p, STRIDE);
            if (memcmp(res0, res1, 64 * sizeof(*res0))) {
                fail();
                break;
            }
        }
        bench_new(res1, src, STRIDE, pred, STRIDE);
    }
}

static void check_add_pred(const C63DSPContext *c)
{
    enum { STRIDE = 32, SIZE = 9 * STRIDE };
    LOCAL_ALIGNED_32(uint8_t, pred, [SIZE]);
    LOCAL_ALIGNED_32(uint8_t, dst0, [SIZE]);
    LOCAL_ALIGNED_32(uint8_t, dst1, [SIZE]);
    LOCAL_ALIGNED_32(int16_t, res0, [64]);

    if (check_func(c->add_pred, "c63_add_pred")) {
        declare_func(void, uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *pred,
                     ptrdiff_t pred_stride, const int16_t res[64]);
        for (int iter = 0; iter < ITER; iter++) {
            const uint8_t *p = iter % 3 == 0 ? NULL : pred + iter % 8;
            fill(pred, SIZE, iter % 4);
            for (int i = 0; i < 64; i++)
                res0[i] = iter & 4 ? (int16_t)rnd() : iter & 8 ? (iter & 16 ? -32768 : 32767) :
                          (int)(rnd() % 601) - 300;
            memset(dst0, 7, SIZE);
            memset(dst1, 7, SIZE);
            call_ref(dst0 + iter % 3, STRIDE, p, STRIDE, res0);
            call_new(dst1 + iter % 3, STRIDE, p, STRIDE, res0);
            if (memcmp(dst0, dst1, SIZE)) {
                fail();
                break;
            }
        }
        bench_new(dst1, STRIDE, pred, STRIDE, res0);
    }
}

static void check_block_sums(const C63DSPContext *c)
{
    enum { STRIDE = 160, SIZE = 2 * STRIDE };
    LOCAL_ALIGNED_32(uint8_t, src, [SIZE]);
    LOCAL_ALIGNED_32(uint16_t, dst0, [STRIDE]);
    LOCAL_ALIGNED_32(uint16_t, dst1, [STRIDE]);
    declare_func(void, uint16_t *dst, const uint8_t *src, ptrdiff_t stride, int n);

    if (!check_func(c->block_sums, "c63_block_sums"))
        return;
    /* every n up to the row, at every offset into it that leaves room for
     * the 7 bytes read past the last sum */
    for (int n = 16; n + 7 <= STRIDE; n += 16) {
        for (int mode = 0; mode < 3; mode++) {
            const int x = rnd() % (STRIDE - n - 7 + 1);
            fill(src, SIZE, mode);
            memset(dst0, 0x55, STRIDE * sizeof(*dst0));
            memset(dst1, 0x55, STRIDE * sizeof(*dst1));
            call_ref(dst0, src + x, STRIDE, n);
            call_new(dst1, src + x, STRIDE, n);
            if (memcmp(dst0, dst1, STRIDE * sizeof(*dst0))) {
                fail();
                n = STRIDE;
                break;
            }
        }
    }
    fill(src, SIZE, 0);
    bench_new(dst1, src, STRIDE, 128);
}

static void check_me_search(const C63DSPContext *c)
{
    /* a window of up to 128 x 128 candidates, the blocks' 8 rows and the
     * 15 bytes read past a window row */
    enum { STRIDE = 160, ROWS = 128 + 8 + 1, SIZE = STRIDE * ROWS };
    uint8_t  *ref  = av_malloc(SIZE), *blk = av_malloc(8 * STRIDE);
    uint16_t *sums = av_malloc(SIZE * sizeof(*sums));
    declare_func(uint32_t, const uint8_t *blk, const uint8_t *ref, ptrdiff_t stride,
                 int nx, int ny, const uint16_t *sums, int seed);

    if (!ref || !blk || !sums || !check_func(c->me_search, "c63_me_search"))
        goto end;
    for (int iter = 0; iter < 2 * ITER; iter++) {
        const int nx = iter < 128 ? iter + 1 : 1 + rnd() % 128;
        const int ny = iter < 128 ? 128 - iter : 1 + rnd() % 128;
        const int seed = rnd() & 1 ? (int)(rnd() % ny) << 7 | (int)(rnd() % nx) : -1;
        uint32_t r0, r1;

        fill(ref, SIZE, iter % 4);
        fill(blk, 8 * STRIDE, (iter + 2) % 4);
        if (iter % 3 == 0) {
            /* the block itself at a random place and again further on in
             * scan order: the first copy must win */
            const int x = rnd() % nx, y = rnd() % ny;
            const int x2 = FFMIN(x + 8 + rnd() % 8, nx - 1), y2 = FFMIN(y + rnd() % 3, ny - 1);
            for (int i = 0; i < 8; i++)
                memcpy(ref + (y2 + i) * STRIDE + x2, blk + i * STRIDE, 8);
            for (int i = 0; i < 8; i++)
                memcpy(ref + (y + i) * STRIDE + x, blk + i * STRIDE, 8);
        }
        ff_c63_block_sums(NULL, sums, ref, STRIDE, ROWS, 0, ROWS);
        r0 = call_ref(blk, ref, STRIDE, nx, ny, sums, seed);
        r1 = call_new(blk, ref, STRIDE, nx, ny, sums, seed);
        if (r0 != r1) {
            if (fail())
                fprintf(stderr, "%dx%d seed %d: sad %u at (%u,%u), got sad %u at (%u,%u)\n",
                        nx, ny, seed, r0 >> 16, r0 & 127, r0 >> 7 & 127,
                        r1 >> 16, r1 & 127, r1 >> 7 & 127);
            break;
        }
    }
    fill(ref, SIZE, 0);
    fill(blk, 8 * STRIDE, 0);
    ff_c63_block_sums(NULL, sums, ref, STRIDE, ROWS, 0, ROWS);
    bench_new(blk, ref, STRIDE, 32, 32, sums, 16 << 7 | 16);
end:
    av_free(ref);
    av_free(blk);
    av_free(sums);
}

void checkasm_check_c63dsp(void)
{
    C63DSPContext c;
    uint8_t q[3][64];

    ff_c63dsp_init(&c);
    ff_c63_quant_tables(q, C63_TABLES_ANNEXK, 1 + rnd() % 50);

    /* Each function where a codec that uses it is built: the
     * reconstruction in the decoder and the encoder, add_pred (which no
     * codec calls) as the CPU side of c63_cuda's reconstruction in
     * checkcuda, the others in the encoder. */
    if (CONFIG_C63_ENCODER) {
        check_fdct_quant(&c, q);
        report("fdct_quant");
    }
    if (CONFIG_C63_DECODER || CONFIG_C63_ENCODER) {
        check_dequant_idct_add(&c, q);
        report("dequant_idct_add");
    }
    if (CONFIG_C63_ENCODER)
        check_sub_pred(&c);
    if (CONFIG_C63_CUDA_ENCODER)
        check_add_pred(&c);
    report("pred");
    if (CONFIG_C63_ENCODER) {
        check_block_sums(&c);
        report("block_sums");
        check_me_search(&c);
        report("me_search");
    }
}
