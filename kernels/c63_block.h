/*
 * Codec63 CUDA kernels: what the encoder's and the decoder's modules share
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
 * The transform and reconstruction of the blocks of a frame, which the
 * three modules of c63 kernels instantiate: c63_cuda_enc.cu (c63_encode),
 * c63_cuda_rd.cu (c63_encode_rd, c63_encode_rdq, c63_recon) and
 * c63_cuda_dec.cu (c63_recon). Device code only: included by the kernels'
 * files, never by the host.
 *
 * Every float operation is one separately rounded __fmul_rn / __fadd_rn:
 * nothing may be fused into an FMA. Double operations use the _rn
 * intrinsics for the same reason.
 *
 * Planes are stored with the padded width as row stride. Coefficients are
 * 64 int16 per 8x8 block in zigzag order, blocks in raster order; vectors
 * are two int8 (x, y) per block, as C63MV.
 */

#ifndef KERNELS_C63_BLOCK_H
#define KERNELS_C63_BLOCK_H

#include "cuda_compat.h"
#include "c63_tables.h"
#include "c63_transform.h"
#include "c63_rd.h"
#include "c63_scene.h"

typedef unsigned char  u8;
typedef unsigned short u16;
typedef unsigned int   u32;

struct c63_mv {
    signed char x, y;
};

static __device__ __forceinline__ int c63_f2i16(float f)
{
    /* (int16_t)av_clipf(f, -32768.0f, 32767.0f) */
    f = f < -32768.0f ? -32768.0f : f > 32767.0f ? 32767.0f : f;
    return (short)__float2int_rz(f);
}

/* The 8 bytes at p, from the aligned words that hold them (no word past
 * the last of them is read): little-endian, byte i of *lo is p[i]. */
static __device__ __forceinline__ void c63_load8(const u8 *p, u32 *lo, u32 *hi)
{
    const size_t a  = (size_t)p;
    const u32 *w    = (const u32 *)(a & ~(size_t)3);
    const u32 sh    = 8 * (u32)(a & 3);
    const u32 w0 = w[0], w1 = w[1], w2 = sh ? w[2] : 0;

    *lo = __funnelshift_r(w0, w1, sh);
    *hi = __funnelshift_r(w1, w2, sh);
}

static __device__ __forceinline__ int c63_byte(u32 lo, u32 hi, int i)
{
    return (int)((i < 4 ? lo >> 8 * i : hi >> 8 * (i - 4)) & 0xFF);
}

/* One pass of the separable transform on the 8 values of one row or
 * column: out[i] = sum_j in[j] * T(j, i), accumulated from 0.0f in
 * increasing j, every product and sum separately rounded. T is c63_dct
 * read at compile-time indices (constant operands). */
#define C63_DCT_PASS(out, in, T)                                                \
    do {                                                                        \
        _Pragma("unroll")                                                       \
        for (int i_ = 0; i_ < 8; i_++) {                                        \
            float acc_ = 0.0f;                                                  \
            _Pragma("unroll")                                                   \
            for (int j_ = 0; j_ < 8; j_++)                                      \
                acc_ = __fadd_rn(acc_, __fmul_rn((in)[j_], T(j_, i_)));         \
            (out)[i_] = acc_;                                                   \
        }                                                                       \
    } while (0)

#define C63_T(j, i)  c63_dct[(j) * 8 + (i)]     /* T[j][i] */
#define C63_TT(j, i) c63_dct[(i) * 8 + (j)]     /* T[i][j] */

/* Row stride (floats) of a block's transposition buffer: 9 makes both the
 * row-wise and the column-wise accesses of a warp's four blocks free of
 * bank conflicts. */
#define C63_ENC_S 9

/* Thread r of a block gives row r (in) and gets column r (out) through
 * the block's buffer s. */
static __device__ __forceinline__ void c63_row_to_column(float *s, int r, const float in[8],
                                                         float out[8])
{
#pragma unroll
    for (int i = 0; i < 8; i++)
        s[r * C63_ENC_S + i] = in[i];
    __syncwarp();
#pragma unroll
    for (int j = 0; j < 8; j++)
        out[j] = s[j * C63_ENC_S + r];
    __syncwarp();               /* s is written again next */
}

/*
 * Transform and reconstruction of the three planes of a frame
 * (c63_transform.h): 8 threads a block, thread r of a block first holds
 * row r and, after each transposition through shared memory, column r.
 * The operations are those of the reference transcriptions that checkcuda
 * compares them with (tests/harness/c63ref.h), in the same order:
 *   forward pass 1  Y[r][i] = sum_j X[r][j] * T[j][i]   (thread: row r)
 *   forward pass 2  Z[k][i] = sum_j Y[j][i] * T[j][k]   (thread: column i)
 *   inverse pass 1  Y[r][i] = sum_j X[r][j] * T[i][j]   (thread: row r)
 *   inverse pass 2  Z[k][i] = sum_j Y[j][i] * T[k][j]   (thread: column i)
 * each accumulated from 0.0f in increasing j. The table is read at
 * constant indices: no loads for it, and each thread's values stay in
 * registers between the transpositions. The eight threads of a block are
 * lanes of one warp, so __syncwarp() orders their exchanges.
 *
 * key != 0: no prediction (keyframe); else the prediction is the 8x8 area
 * of ref at the block's position plus its vector, which motion
 * estimation keeps inside the plane, or none where the vector is
 * C63_MV_INTRA.
 */
/* (float)round((double)((float)c * (float)q) / 4.0), scaled by au * av:
 * the dequantised coefficient as the inverse transform takes it. */
static __device__ __forceinline__ float c63_dequant(int c, int q, float au, float av)
{
    const float p = __fmul_rn((float)c, (float)q);
    const float v = __double2float_rn(round(__dmul_rn((double)p, 0.25)));
    return __fmul_rn(__fmul_rn(v, au), av);
}

/* What a launch of c63_encode_body does: c63_encode (the reference's
 * levels), c63_encode_rd (with the trellis), and with the DC chain in two
 * launches around c63_dc_chain: c63_encode_rdq (the levels and each
 * block's exact DC) and c63_recon (the reconstruction from the levels). */
enum { C63_ENC_PLAIN, C63_ENC_RD, C63_ENC_RDQ, C63_ENC_RECON };

/* a 64-bit value of lane - o of the group gm of eight */
static __device__ __forceinline__ long long c63_shfl_up64(unsigned gm, long long v, int o)
{
    const unsigned lo = __shfl_up_sync(gm, (unsigned)v, o, 8);
    const unsigned hi = __shfl_up_sync(gm, (unsigned)((unsigned long long)v >> 32), o, 8);
    return (long long)((unsigned long long)hi << 32 | lo);
}

/*
 * c63_rd_quant() (c63_rd.h) with the eight threads of a block (thread r of
 * the lanes gm). The start: thread r takes positions 8r to 8r + 7, their
 * sums of squares and non-zero levels, placed by a scan over the eight.
 * Candidate j belongs to thread j & 7, which keeps in registers (slot
 * j >> 3) its node and its best way so far (c63_rd_quant_edge()'s cost,
 * bp and bl). The candidates are taken in order: candidate i's way is
 * final once the ways from every position before it have been tried; its
 * thread stores it, and the eight try the way from it to each of their
 * candidates after it. So each candidate tries the positions before it in
 * increasing order and keeps the first of equal costs, as the CPU does,
 * with one exchange a candidate instead of a reduction over the eight.
 * The first thread takes the end.
 */
static __device__ __forceinline__ void c63_rd_quant8(C63RDTrellis *t, short *c, const int *z4,
                                                     const u8 *q, const u8 *ac_len,
                                                     long long lambda, int r, unsigned gm)
{
    C63RDNode n[8];
    long long sk[8], s = 0, sc, b[8], from = 0;
    int way[8], cnt, cc, m, p = 0;      /* way: bp | bl << 8 */
    unsigned nz = 0;

#pragma unroll
    for (int u = 0; u < 8; u++) {
        const int k = 8 * r + u;
        if (k) {
            s += (long long)z4[k] * z4[k];
            if (c[k])
                nz |= 1u << u;
        }
        sk[u] = s;
    }
    sc = s;
    cnt = cc = __popc(nz);
#pragma unroll
    for (int o = 1; o < 8; o <<= 1) {
        const long long os = c63_shfl_up64(gm, sc, o);
        const int oc = __shfl_up_sync(gm, cc, o, 8);
        if (r >= o) {
            sc += os;
            cc += oc;
        }
    }
    m = __shfl_sync(gm, cc, 7, 8);
    cc -= cnt;
#pragma unroll
    for (int u = 0; u < 8; u++) {
        t->s0[8 * r + u] = sc - s + sk[u];
        if (nz >> u & 1)
            t->pos[cc++] = 8 * r + u;
    }
    __syncwarp(gm);

#pragma unroll
    for (int u = 0; u < 8; u++) {
        b[u]   = C63_RD_COST_MAX;
        way[u] = 0;
        if (8 * u + r < m)
            c63_rd_quant_node(&n[u], t->pos[8 * u + r], c, z4, q);
    }
    for (int i = 0; i < m; i++) {       /* from p: the start, or candidate i - 1 */
#pragma unroll
        for (int u = 0; u < 8; u++) {
            const int j = 8 * u + r;
            if (j >= i && j < m) {
                int bl;
                if (c63_rd_quant_edge(from, &n[u], p, ac_len, lambda, &b[u], &bl))
                    way[u] = p | bl << 8;
                if (j == i)
                    c63_rd_quant_set(t, &n[u], b[u], way[u] & 255, way[u] >> 8);
            }
        }
        __syncwarp(gm);
        p    = t->pos[i];
        from = t->best[p] - t->s0[p];
    }
    if (!r)
        c63_rd_quant_end(t, c, m, ac_len, lambda);
}

template <int MODE>
static __device__ __forceinline__ void c63_encode_body(const C63EncParams &e)
{
    constexpr bool RD = MODE == C63_ENC_RD || MODE == C63_ENC_RDQ;
    __shared__ float buf[C63_ENC_BLOCKS][8 * C63_ENC_S];
    __shared__ __align__(16) short cbuf[C63_ENC_BLOCKS][64];
    __shared__ int zbuf[RD ? C63_ENC_BLOCKS : 1][64];
    __shared__ u8 acl[RD ? 2 : 1][256];
    __shared__ C63RDTrellis trel[RD ? C63_ENC_BLOCKS : 1];
    __shared__ u8 qs[3][64];
    __shared__ u8 zz[64];

    const int t   = threadIdx.x;
    const int sub = t >> 3;                 /* block in the thread block */
    const int r   = t & 7;                  /* its row, then its column */
    const int b   = blockIdx.x * C63_ENC_BLOCKS + sub;
    const int active = b < e.nblocks;
    /* the plane's fields without indexing the parameter space */
    const int pi  = b >= e.p[2].first ? 2 : b >= e.p[1].first ? 1 : 0;
#define ENC_FIELD(f) (pi == 2 ? e.p[2].f : pi == 1 ? e.p[1].f : e.p[0].f)
    const float au = r ? 1.0f : C63_ISQRT2_F;   /* column r's scale */
    float *s = buf[sub];
    size_t pix = 0;
    u32 p0 = 0, p1 = 0;                     /* prediction of row r */
    float x[8], y[8];

    for (int k = t; k < 3 * 64; k += C63_ENC_THREADS)
        qs[k >> 6][k & 63] = ((const u8 *)e.q)[k];
    for (int k = t; k < 64; k += C63_ENC_THREADS)
        zz[k] = c63_izigzag[k];
    if (RD)
        for (int k = t; k < 2 * 256; k += C63_ENC_THREADS)
            acl[k >> 8][k & 255] = ((const u8 *)e.ac_len)[k];

    if (active) {
        const int w  = ENC_FIELD(w), lb = b - ENC_FIELD(first), bw = w >> 3;
        const int by = lb / bw, bx = lb - by * bw;
        pix = (size_t)64 * ENC_FIELD(first) + (size_t)(8 * by + r) * w + 8 * bx;
        if (!(e.key < 0 ? ((const C63SceneState *)e.scene)->key : e.key)) {
            const c63_mv v = ((const c63_mv *)e.mv)[b];
            if (v.x != C63_MV_INTRA)
                c63_load8((const u8 *)e.ref + pix + (ptrdiff_t)v.y * w + v.x, &p0, &p1);
        }
        if (MODE == C63_ENC_RECON) {
            ((uint4 *)cbuf[sub])[r] = ((const uint4 *)e.coef)[(size_t)b * 8 + r];
        } else {
            const uint2 o = *(const uint2 *)((const u8 *)e.orig + pix);
#pragma unroll
            for (int j = 0; j < 8; j++)
                x[j] = (float)(c63_byte(o.x, o.y, j) - c63_byte(p0, p1, j));
        }
    } else {
#pragma unroll
        for (int j = 0; j < 8; j++)
            x[j] = 0.0f;
        if (MODE == C63_ENC_RECON)
            for (int k = 0; k < 8; k++)
                cbuf[sub][8 * r + k] = 0;
    }
#undef ENC_FIELD
    __syncthreads();                        /* qs, zz */

    if (MODE != C63_ENC_RECON) {
        /* Forward pass 1: row r. */
        C63_DCT_PASS(y, x, C63_T);
        c63_row_to_column(s, r, y, x);

        /* Forward pass 2: column r; scale, quantise, dequantise. */
        C63_DCT_PASS(y, x, C63_T);
#pragma unroll
        for (int k = 0; k < 8; k++) {
            const float av = k ? 1.0f : C63_ISQRT2_F;
            const int zk = zz[k * 8 + r];
            const int q  = qs[pi][zk];
            const float z = __fmul_rn(__fmul_rn(y[k], au), av);
            /* (int16_t)(float)round((double)z / 4.0 / (double)q); the
             * division by 4 is exact, as the multiplication by 0.25 */
            const double d = __ddiv_rn(__dmul_rn((double)z, 0.25), (double)q);
            int c = (short)__float2int_rz(__double2float_rn(round(d)));
            /* rate control: levels the reference decoder reads (quirk Q3),
             * as ff_c63_encode_row() keeps them */
            if (e.limit_ac && zk) {
                const int lim = pi ? 1023 : 511;
                c = c < -lim ? -lim : c > lim ? lim : c;
            }
            cbuf[sub][zk] = (short)c;
            if (RD)     /* 4 z, exact, rounded to nearest as lrintf() */
                zbuf[sub][zk] = __float2int_rn(__fmul_rn(z, 4.0f));
            else
                s[k * C63_ENC_S + r] = c63_dequant(c, q, au, av);
        }
        __syncwarp();
    }
    if (RD && active)       /* the block's eight lanes of the warp */
        c63_rd_quant8(&trel[sub], cbuf[sub], zbuf[sub], qs[pi], acl[pi ? 1 : 0], e.lambda, r,
                      0xFFu << (t & 24));
    __syncwarp();
    if (MODE == C63_ENC_RDQ) {
        /* the levels and the exact DC for c63_dc_chain, which decides the
         * DCs before c63_recon reconstructs the blocks */
        if (active) {
            ((uint4 *)e.coef)[(size_t)b * 8 + r] = ((const uint4 *)cbuf[sub])[r];
            if (!r)
                ((int *)e.dcz)[b] = zbuf[sub][0];
        }
        return;
    }
    if (MODE != C63_ENC_PLAIN) {
#pragma unroll
        for (int k = 0; k < 8; k++) {
            const int zk = zz[k * 8 + r];
            s[k * C63_ENC_S + r] = c63_dequant(cbuf[sub][zk], qs[pi][zk], au,
                                               k ? 1.0f : C63_ISQRT2_F);
        }
        __syncwarp();
    }
    if (active && MODE != C63_ENC_RECON)
        ((uint4 *)e.coef)[(size_t)b * 8 + r] = ((const uint4 *)cbuf[sub])[r];
#pragma unroll
    for (int j = 0; j < 8; j++)
        x[j] = s[r * C63_ENC_S + j];
    __syncwarp();

    /* Inverse pass 1: row r. */
    C63_DCT_PASS(y, x, C63_TT);
    c63_row_to_column(s, r, y, x);

    /* Inverse pass 2: column r; back to rows for the reconstruction. */
    C63_DCT_PASS(y, x, C63_TT);
#pragma unroll
    for (int k = 0; k < 8; k++)
        s[k * C63_ENC_S + r] = y[k];
    __syncwarp();
    if (active) {
        uint2 out;
        out.x = out.y = 0;
#pragma unroll
        for (int j = 0; j < 8; j++) {
            int v = c63_byte(p0, p1, j) + c63_f2i16(s[r * C63_ENC_S + j]);
            v = v < 0 ? 0 : v > 255 ? 255 : v;
            if (j < 4)
                out.x |= (u32)v << 8 * j;
            else
                out.y |= (u32)v << 8 * (j - 4);
        }
        *(uint2 *)((u8 *)e.rec + pix) = out;
    }
}

#endif /* KERNELS_C63_BLOCK_H */
