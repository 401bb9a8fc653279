/*
 * Codec63 CUDA kernels
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
 * Kernels of the c63_cuda encoder. Each one gives exactly what its CPU twin
 * gives (libavcodec/c63: c63me.c, c63dsp.c), bit for bit:
 *
 *   c63_convert      the input planes (planar, or an interleaved UV plane)
 *                    into the zero-padded coding planes, one launch a frame
 *   c63_sc_hist,     scene cuts (c63_scene.h): the luma histogram, then the
 *   c63_sc_decide    keyframe decision into c63_scene, which the kernels
 *                    below read where the host passes them -1 for key
 *   c63_activity     the activity of an input picture (c63_scene.h), for
 *                    the buffer model of rate control
 *   c63_meN          full-search motion estimation (docs/c63-format.md
 *                    section 7.3), N candidate rows a work item
 *   c63_encode       motion compensation, residual, forward DCT,
 *                    quantisation, dequantisation, inverse DCT and
 *                    reconstruction (docs/c63-format.md sections 6 and 7)
 *   c63_ec_*         entropy coding, header to EOI, of the coefficients
 *                    and vectors (docs/c63-format.md section 5): the stages of
 *                    c63_ec.h, each the same code as its CPU twin
 *
 * and of the c63 decoder's CUDA hwaccel (libavcodec/c63/c63dec_cuda.c):
 *
 *   c63_hd_*         the parallel entropy decoding of c63_hdec.h (its CPU
 *                    twin: tests/harness/c63hd_serial.h), then c63_recon
 *
 * Every float operation is one separately rounded __fmul_rn / __fadd_rn:
 * nothing may be fused into an FMA. Double operations use the _rn
 * intrinsics for the same reason.
 *
 * Built by FFmpeg with clang (--enable-cuda-llvm, compat/cuda/cuda_runtime.h
 * plus cuda_compat.h) or with nvcc; both give the same PTX operations.
 *
 * Planes are stored with the padded width as row stride. Coefficients are
 * 64 int16 per 8x8 block in zigzag order, blocks in raster order; vectors
 * are two int8 (x, y) per block, as C63MV.
 */

#include "cuda_compat.h"
#include "c63_tables.h"
#include "block_match.h"
#include "c63_convert.h"
#include "c63_transform.h"
#include "c63_ec.h"
#include "c63_rd.h"
#include "c63_scene.h"
#include "c63_hdec.h"

typedef unsigned char  u8;
typedef unsigned short u16;
typedef unsigned int   u32;

/* The scene-cut state and decision of the frame being coded (c63_scene.h). */
__device__ C63SceneState c63_scene;

struct c63_mv {
    signed char x, y;
};

/* ---------------------------------------------------------------- input */

/*
 * The three coding planes of a frame from its source planes, 8 output
 * bytes a thread (c63_convert.h).
 */
extern "C" __global__ void __launch_bounds__(C63_CONV_THREADS)
c63_convert(C63ConvParams cp)
{
    const int g = blockIdx.x * C63_CONV_THREADS + threadIdx.x;
    if (g >= cp.groups)
        return;
    /* the plane's fields without indexing the parameter space */
    const int pi = g >= cp.p[2].first ? 2 : g >= cp.p[1].first ? 1 : 0;
#define CONV_FIELD(f) (pi == 2 ? cp.p[2].f : pi == 1 ? cp.p[1].f : cp.p[0].f)
    const int gw = CONV_FIELD(gw), local = g - CONV_FIELD(first);
    const int y = local / gw, x = 8 * (local - y * gw);
    const int sw = CONV_FIELD(sw), step = CONV_FIELD(step);
    u8 *d = (u8 *)CONV_FIELD(dst) + (size_t)y * CONV_FIELD(dw) + x;
    unsigned long long out = 0;

    if (y < CONV_FIELD(sh) && x < sw) {
        const u8 *src = (const u8 *)CONV_FIELD(src) + (size_t)y * CONV_FIELD(pitch) +
                        (size_t)x * step;
        const size_t a = (size_t)src;
        if (x + 8 <= sw && step == 1 && !(a & 7)) {
            out = *(const unsigned long long *)src;
        } else if (x + 8 <= sw && step == 2 && !(a & 14)) {
            /* 16 bytes from the even address at or before src: the
             * samples are every second byte from src */
            const uint4 q = *(const uint4 *)(src - (a & 1));
            const u32 sel = a & 1 ? 0x7531 : 0x6420;
            out = (unsigned long long)__byte_perm(q.z, q.w, sel) << 32 | __byte_perm(q.x, q.y, sel);
        } else {
            for (int i = 0; i < 8 && x + i < sw; i++)
                out |= (unsigned long long)src[i * step] << (8 * i);
        }
    }
#undef CONV_FIELD
    *(unsigned long long *)d = out;
}

/* ------------------------------------------------------------ scene cuts */

/*
 * c63_sc_hist: C63_SC_ROWS of the counted rows (every other row) a thread
 * block, into c63_scene.hist[cur] (or sp.hist).
 */
extern "C" __global__ void __launch_bounds__(C63_SC_THREADS)
c63_sc_hist(C63SceneParams sp)
{
    __shared__ u32 h[C63_SC_BINS];
    const int t = threadIdx.x, nx = (sp.width + 1) >> 1;

    if (t < C63_SC_BINS)
        h[t] = 0;
    __syncthreads();
    for (int r = 0; r < C63_SC_ROWS; r++) {
        const int y = 2 * (blockIdx.x * C63_SC_ROWS + r);
        if (y >= sp.height)
            break;
        const u8 *row = (const u8 *)sp.luma + (size_t)y * sp.stride;
        for (int i = t; i < nx; i += C63_SC_THREADS)
            atomicAdd(&h[row[2 * i] >> C63_SC_SHIFT], 1u);
    }
    __syncthreads();
    if (t < C63_SC_BINS && h[t])
        atomicAdd(sp.hist ? (u32 *)sp.hist + t : &c63_scene.hist[c63_scene.cur][t], h[t]);
}

/* c63_sc_decide: one thread block of C63_SC_BINS threads. The histogram
 * of the frame before is cleared for the next frame's. */
extern "C" __global__ void __launch_bounds__(C63_SC_BINS)
c63_sc_decide(C63SceneParams sp)
{
    __shared__ u32 a[C63_SC_BINS], b[C63_SC_BINS];
    C63SceneState *st = &c63_scene;
    const int t = threadIdx.x, cur = st->cur;

    a[t] = st->hist[cur][t];
    b[t] = st->hist[!cur][t];
    __syncthreads();
    if (!t) {
        const int cut = st->have_prev &&
                        c63_sc_cut(c63_sc_change(a, b), sp.width, sp.height, sp.threshold);
        const int key = c63_sc_key(sp.force, st->have_prev, st->since_key, sp.gop, cut);
        st->key       = key;
        st->since_key = key ? 1 : st->since_key + 1;
        st->have_prev = 1;
        st->cur       = !cur;
    }
    st->hist[!cur][t] = 0;
}

/*
 * c63_activity: c63_sc_activity() of a picture's luma, C63_SC_ROWS of the
 * counted rows a thread block; each warp adds its sum into *sum.
 */
extern "C" __global__ void __launch_bounds__(C63_SC_THREADS)
c63_activity(C63ActivityParams ap)
{
    const int t = threadIdx.x;
    u32 s = 0;

    for (int r = 0; r < C63_SC_ROWS; r++) {
        const int y = 2 * (blockIdx.x * C63_SC_ROWS + r);
        if (y >= ap.height)
            break;
        const u8 *p = (const u8 *)ap.luma + (size_t)y * ap.pitch;
        for (int x = t; x < ap.width; x += C63_SC_THREADS) {
            const int v = p[x];
            if (x + 1 < ap.width)
                s += abs(v - (int)p[x + 1]);
            if (y + 1 < ap.height)
                s += abs(v - (int)p[x + ap.pitch]);
        }
    }
#pragma unroll
    for (int m = 16; m; m >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, m);
    if (!(t & 31) && s)
        atomicAdd((unsigned long long *)ap.sum, (unsigned long long)s);
}

/* ------------------------------------------------------ motion estimation */

/*
 * One thread block per 8x8 block of a w x h plane (grid bw x bh), range r,
 * gridDim.z planes of the same size zstride bytes apart (their vectors
 * zstride / 64 apart): bm_search() of block_match.h (the search
 * mestimate_cuda's esa shares) over the window [x0, x1) x [y0, y1) of
 * docs/c63-format.md section 7.3, staged in shared memory (win_stride bytes
 * a row, at least BM_STRIDE(8, 2r); the launch gives at least
 * BM_ROWS_N(8, 2r, NR) rows). The winner, the lowest SAD and then the
 * earliest in the scan (y outer, x inner), is what the reference's
 * strict-less scan keeps. An empty window gives the vector (0, 0).
 *
 * c63_meN has N candidate rows a work item; C63_ME_NR(r) of block_match.h
 * (8 or 16) is the one the encoder launches for range r.
 */
template <int NR>
static __device__ __forceinline__ void
c63_me_body(c63_mv *mv, const u8 *cur, const u8 *ref, int w, int h, int r,
            int win_stride, int zstride)
{
    extern __shared__ __align__(16) u32 smem[];
    const int bx = blockIdx.x, by = blockIdx.y;
    const int mx = 8 * bx, my = 8 * by;
    const int x0 = max(0, mx - r), x1 = min(mx + r, w - 8);
    const int y0 = max(0, my - r), y1 = min(my + r, h - 8);
    const int nx = x1 - x0;
    const size_t zoff = (size_t)blockIdx.z * zstride;
    const u32 best = bm_search<8, false, true, u32, NR>(cur + zoff, w, ref + zoff, w, w, h,
                                                         mx, my, x0, y0, nx, y1 - y0,
                                                         win_stride, smem);

    if (threadIdx.x == 0) {
        c63_mv v;
        if (best == 0xFFFFFFFFu) {
            v.x = 0;
            v.y = 0;
        } else {
            const int c  = best & 0xFFFF;
            const int cy = c / nx, cx = c - cy * nx;
            v.x = (signed char)(x0 + cx - mx);
            v.y = (signed char)(y0 + cy - my);
        }
        mv[zoff / 64 + by * gridDim.x + bx] = v;
    }
}

#define C63_ME_KERNEL(nr)                                                       \
extern "C" __global__ void __launch_bounds__(256)                              \
c63_me ## nr(c63_mv *mv, const u8 *cur, const u8 *ref,                         \
             int w, int h, int r, int win_stride, int zstride, int sc)         \
{                                                                              \
    if (sc && c63_scene.key)        /* a scene cut: no search */              \
        return;                                                                \
    c63_me_body<nr>(mv, cur, ref, w, h, r, win_stride, zstride);               \
}

/* the two that C63_ME_NR() chooses */
C63_ME_KERNEL(8)
C63_ME_KERNEL(16)

/* ------------------------------------------- transform and reconstruction */

__device__ __forceinline__ int c63_f2i16(float f)
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

/* a 64-bit value of lane ^ o of the group gm */
static __device__ __forceinline__ long long c63_shfl_xor64(unsigned gm, long long v, int o)
{
    const unsigned lo = __shfl_xor_sync(gm, (unsigned)v, o);
    const unsigned hi = __shfl_xor_sync(gm, (unsigned)((unsigned long long)v >> 32), o);
    return (long long)((unsigned long long)hi << 32 | lo);
}

/*
 * c63_rd_quant() (c63_rd.h) with the eight threads of a block (thread r of
 * the lanes gm): the first takes the start and the end; for each candidate
 * the eight take the ways from every eighth position before it (thread r
 * from positions r - 1, r + 7, ...), each the first of its least cost, and
 * keep the least of the eight, the earliest position on ties: the CPU's
 * choice.
 */
static __device__ __forceinline__ void c63_rd_quant8(C63RDTrellis *t, short *c, const int *z4,
                                                     const u8 *q, const u8 *ac_len,
                                                     long long lambda, int r, unsigned gm)
{
    int m = 0;
    if (!r)
        m = c63_rd_quant_start(t, c, z4);
    m = __shfl_sync(gm, m, threadIdx.x & 24);
    __syncwarp(gm);
    for (int i = 0; i < m; i++) {
        C63RDNode n;
        long long b = C63_RD_COST_MAX;
        int bp = 64, bl = 0;
        c63_rd_quant_node(&n, t->pos[i], c, z4, q, lambda);
        for (int j = r - 1; j < i; j += 8) {
            const int p = j < 0 ? 0 : t->pos[j];
            if (c63_rd_quant_edge(t, &n, p, ac_len, lambda, &b, &bl))
                bp = p;
        }
        for (int o = 1; o < 8; o <<= 1) {
            const long long ob = c63_shfl_xor64(gm, b, o);
            const int obp = __shfl_xor_sync(gm, bp, o), obl = __shfl_xor_sync(gm, bl, o);
            if (ob < b || (ob == b && obp < bp)) {
                b  = ob;
                bp = obp;
                bl = obl;
            }
        }
        if (!r)
            c63_rd_quant_set(t, &n, b, bp, bl);
        __syncwarp(gm);
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
        if (!(e.key < 0 ? c63_scene.key : e.key)) {
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

extern "C" __global__ void __launch_bounds__(C63_ENC_THREADS)
c63_encode(C63EncParams e)
{
    c63_encode_body<C63_ENC_PLAIN>(e);
}

extern "C" __global__ void __launch_bounds__(C63_ENC_THREADS)
c63_encode_rd(C63EncParams e)
{
    c63_encode_body<C63_ENC_RD>(e);
}

extern "C" __global__ void __launch_bounds__(C63_ENC_THREADS)
c63_encode_rdq(C63EncParams e)
{
    c63_encode_body<C63_ENC_RDQ>(e);
}

extern "C" __global__ void __launch_bounds__(C63_ENC_THREADS)
c63_recon(C63EncParams e)
{
    c63_encode_body<C63_ENC_RECON>(e);
}

/* ------------------------------------------------------------ DC chain */

/*
 * -trellis 2 (c63_rd.h): one warp a chain (the blocks of an MCU row of a
 * plane in coding order), as the CPU's c63_rd_dc_chain(). The lanes take
 * 32 blocks at a time: each its block's candidates and weights
 * (c63_rd_dc_weights(), the candidates of the block before from the lane
 * before, or for the first lane from the last of the 32 before), while the
 * next 32 blocks' levels and exact DCs are being loaded; then the first
 * lane takes the steps (c63_rd_dc_advance()) and keeps the way back in
 * shared memory. At the end it walks back writing each block's choice over
 * its way back, and the lanes set the levels of the blocks whose choice is
 * the second candidate.
 */
extern "C" __global__ void __launch_bounds__(32)
c63_dc_chain(C63DCChainParams d)
{
    __shared__ long long wt[32][4];
    __shared__ u8 back[C63_DC_CHAIN_MAX];
    __shared__ u8 dcl[2][12];
    const int lane = threadIdx.x, c = blockIdx.x;
    const int pi = c >= d.p[2].first_chain ? 2 : c >= d.p[1].first_chain ? 1 : 0;
    const C63DCChainPlane pl = d.p[pi];
    const int v = c - pl.first_chain, luma = !pi, n = luma ? 2 * pl.bw : pl.bw;
    const int q = ((const u8 *)d.q)[pi * 64];
    short *coef = (short *)d.coef;
    const int *dcz = (const int *)d.dcz;
    long long cost[2] = { 0, 0 }, err[2], w[4];
    int lv[2], lp[2] = { 0, 0 }, l = 0, z = 0;

    if (lane < 24)
        dcl[lane / 12][lane % 12] = ((const u8 *)d.dc_len)[lane];
    if (lane < n) {
        const int b = pl.first + c63_rd_dc_block(lane, luma, pl.bw, v);
        l = coef[(size_t)64 * b];
        z = dcz[b];
    }
    __syncwarp();
    for (int i0 = 0; i0 < n; i0 += 32) {
        const int i = i0 + lane;
        int p0, p1;
        c63_rd_dc_cands(l, z, q, lv, err);
        p0 = __shfl_up_sync(0xFFFFFFFFu, lv[0], 1);
        p1 = __shfl_up_sync(0xFFFFFFFFu, lv[1], 1);
        if (!lane) {
            p0 = lp[0];
            p1 = lp[1];
        }
        lp[0] = __shfl_sync(0xFFFFFFFFu, lv[0], 31);
        lp[1] = __shfl_sync(0xFFFFFFFFu, lv[1], 31);
        if (i < n) {
            const int pv[2] = { p0, p1 };
            c63_rd_dc_weights(w, lv, err, pv, dcl[luma ? 0 : 1], d.lambda, !i);
            for (int k = 0; k < 4; k++)
                wt[lane][k] = w[k];
        }
        if (i + 32 < n) {       /* the next 32 blocks, while the steps run */
            const int b = pl.first + c63_rd_dc_block(i + 32, luma, pl.bw, v);
            l = coef[(size_t)64 * b];
            z = dcz[b];
        }
        __syncwarp();
        if (!lane)
            for (int j = 0; j < 32 && i0 + j < n; j++)
                back[i0 + j] = c63_rd_dc_advance(cost, wt[j]);
        __syncwarp();
    }
    if (!lane) {
        int s = cost[1] < cost[0];
        for (int i = n - 1; i >= 0; i--) {
            const int t = back[i];
            back[i] = s;
            s = (t >> s) & 1;
        }
    }
    __syncwarp();
    for (int i = lane; i < n; i += 32)
        if (back[i]) {
            const int b = pl.first + c63_rd_dc_block(i, luma, pl.bw, v);
            c63_rd_dc_cands(coef[(size_t)64 * b], dcz[b], q, lv, err);
            coef[(size_t)64 * b] = lv[1];
        }
}

/* ------------------------------------------------------ vector decision */

/*
 * -mv_rd and -intra_rd (c63_rd.h): one warp a block row, its blocks left
 * to right, as the CPU's c63_rd_choose_mv(). Each lane takes two samples
 * of the block (row lane / 4, columns 2 (lane % 4) and the next), and the
 * warp adds the 32 lanes' sums up, so that every lane has the total.
 */
static __device__ __forceinline__ int c63_warp_sum(int v)
{
#pragma unroll
    for (int m = 16; m; m >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, m);
    return v;
}

static __device__ __forceinline__ int c63_warp_sad(const u8 *cur, const u8 *ref, int w, int lane)
{
    const int o = (lane >> 2) * w + 2 * (lane & 3);
    return c63_warp_sum(abs((int)cur[o] - (int)ref[o]) + abs((int)cur[o + 1] - (int)ref[o + 1]));
}

/* c63_rd_mean_sad8(): the residual cur - ref (ref NULL: cur), its SAD
 * from its mean and its sum. */
static __device__ __forceinline__ int c63_warp_mean_sad(const u8 *cur, const u8 *ref, int w,
                                                        int lane, int *sum)
{
    const int o = (lane >> 2) * w + 2 * (lane & 3);
    const int a = cur[o] - (ref ? ref[o] : 0), b = cur[o + 1] - (ref ? ref[o + 1] : 0);
    const int s = c63_warp_sum(a + b), m = (s + 32) >> 6;
    *sum = s;
    return c63_warp_sum(abs(a - m) + abs(b - m));
}

extern "C" __global__ void __launch_bounds__(32 * C63_MVRD_WARPS)
c63_mv_rd(C63MVRDParams m)
{
    const int lane = threadIdx.x & 31;
    const int row  = blockIdx.x * C63_MVRD_WARPS + (threadIdx.x >> 5);
    if (row >= m.nrows || (m.sc && c63_scene.key))
        return;
    const int pi = row >= m.p[2].first_row ? 2 : row >= m.p[1].first_row ? 1 : 0;
#define MVRD_FIELD(f) (pi == 2 ? m.p[2].f : pi == 1 ? m.p[1].f : m.p[0].f)
    const int w = MVRD_FIELD(w), h = MVRD_FIELD(h), first = MVRD_FIELD(first);
    const int by = row - MVRD_FIELD(first_row), bw = w >> 3, qdc = MVRD_FIELD(qdc);
#undef MVRD_FIELD
    const u8 *cur = (const u8 *)m.orig + (size_t)64 * first + (size_t)8 * by * w;
    const u8 *ref = (const u8 *)m.ref  + (size_t)64 * first;
    c63_mv *mv = (c63_mv *)m.mv + first + (size_t)by * bw;
    c63_mv left;
    left.x = C63_MV_INTRA;      /* none in column 0 */
    left.y = 0;

    for (int bx = 0; bx < bw; bx++) {
        const c63_mv best = mv[bx];
        const int x = 8 * bx, y = 8 * by, has_left = left.x != C63_MV_INTRA;
        c63_mv ret = best;
        int cost_min = 0x7fffffff, bits_min = 0;
#pragma unroll
        for (int i = 0; i < 3; i++) {
            c63_mv v;
            if (i != 1 && !(m.modes & C63_RD_MV))
                continue;
            if (i == 0) {
                if (!has_left)
                    continue;
                v = left;
            } else if (i == 1) {
                v = best;
            } else {
                v.x = v.y = 0;
            }
            if (x + v.x < 0 || x + v.x > w - 8 || y + v.y < 0 || y + v.y > h - 8)
                continue;
            const int reuse = has_left && v.x == left.x && v.y == left.y;
            const int bits = c63_rd_mv_bits(v.x, v.y, reuse);
            const int sad = c63_warp_sad(cur + x, ref + (size_t)(y + v.y) * w + x + v.x, w, lane);
            const int cost = c63_rd_mv_cost(sad, bits, m.lambda_me);
            if (cost < cost_min) {
                cost_min = cost;
                bits_min = bits;
                ret = v;
            }
        }
        if (m.modes & C63_RD_INTRA) {
            int sum_i, sum_p;
            const int sad_i = c63_warp_mean_sad(cur + x, 0, w, lane, &sum_i);
            const int sad_p = c63_warp_mean_sad(cur + x, ref + (size_t)(y + ret.y) * w + x + ret.x,
                                                w, lane, &sum_p);
            if (c63_rd_mv_cost(sad_i + C63_RD_INTRA_BIAS, 1 + c63_rd_dc_bits(sum_i, qdc),
                               m.lambda_me) <
                c63_rd_mv_cost(sad_p, bits_min + c63_rd_dc_bits(sum_p, qdc), m.lambda_me)) {
                ret.x = C63_MV_INTRA;
                ret.y = 0;
            }
        }
        if (!lane)
            mv[bx] = ret;
        left = ret;
    }
}

/* -------------------------------------------------------- entropy coding */

/*
 * The stages of c63_ec.h, launched in this order on one stream, each with
 * C63EC_THREADS threads a block (c63_ec_code: C63EC_CODE_THREADS) and the
 * frame's C63ECParams:
 *
 *   c63_ec_code     c63ec_code_grid(nblocks) blocks of C63EC_CODE_THREADS
 *   c63_ec_sum      nchunks blocks
 *   c63_ec_apply    nchunks blocks
 *   c63_ec_gather   up to C63EC_GRID blocks (grid-stride over the chunks
 *                   of words that the frame's bit count needs)
 *   c63_ec_stuff    as c63_ec_gather
 *
 * The sizes that the host cannot know (bits, 0xFF bytes) pass from stage
 * to stage through the C63ECInfo in device memory.
 */

typedef unsigned long long u64;

/* Exclusive prefix sum of v over the thread block (every thread must call
 * it); the block's sum in *total. */
static __device__ u64 ec_block_scan(u64 v, u64 *total)
{
    __shared__ u64 buf[2][C63EC_THREADS];
    const int t = threadIdx.x;
    int cur = 0;

    buf[0][t] = v;
    __syncthreads();
    for (int d = 1; d < C63EC_THREADS; d <<= 1) {
        u64 x = buf[cur][t];
        if (t >= d)
            x += buf[cur][t - d];
        buf[cur ^ 1][t] = x;
        cur ^= 1;
        __syncthreads();
    }
    v = buf[cur][t] - v;
    *total = buf[cur][C63EC_THREADS - 1];
    __syncthreads();                /* buf is reused by the next call */
    return v;
}

/* v[0] + ... + v[n - 1], by one thread block (every thread must call it;
 * every thread gets it). */
static __device__ u64 ec_sum_before(const u64 *v, u64 n)
{
    u64 s = 0, total;

    for (u64 i = threadIdx.x; i < n; i += C63EC_THREADS)
        s += v[i];
    ec_block_scan(s, &total);
    return total;
}

/* Words and chunks of words of the frame whose bit count the scan found. */
static __device__ void ec_sizes(const C63ECParams &p, u64 *nbits, u64 *nwords, u64 *wchunks)
{
    *nbits   = ((const C63ECInfo *)p.info)->bits;
    *nwords  = (*nbits + 31) / 32;
    *wchunks = (*nwords + C63EC_THREADS - 1) / C63EC_THREADS;
}

/* Shorts per coded block staged by c63_ec_code: 33 words, so that the
 * threads of a warp, each reading its own block, hit 32 different banks. */
#define C63EC_STAGE_STRIDE 66

/*
 * Stage 1: one thread per coded block, C63EC_CODE_THREADS a thread block.
 * The thread block first stages its coded blocks' coefficients in shared
 * memory, 16 bytes a load (8 threads a block's 128 bytes), where each
 * thread's c63ec_code_block() then reads them. The parameters and the
 * tables are copied to shared memory too (a parameter whose address is
 * taken would be copied to each thread's local memory).
 */
extern "C" __global__ void __launch_bounds__(C63EC_CODE_THREADS)
c63_ec_code(C63ECParams p)
{
    __shared__ __align__(4) C63ECTables t;
    __shared__ C63ECParams sp;
    __shared__ __align__(4) short cs[C63EC_CODE_THREADS * C63EC_STAGE_STRIDE];
    __shared__ unsigned long long blk[C63EC_CODE_THREADS];
    const int tid = threadIdx.x, i0 = blockIdx.x * C63EC_CODE_THREADS, i = i0 + tid;
    const short *coef = (const short *)p.coef;

    for (int k = tid; k < (int)(sizeof(t) / 4); k += C63EC_CODE_THREADS)
        ((u32 *)&t)[k] = ((const u32 *)p.tables)[k];
    if (!tid) {
        sp = p;
        if (sp.keyframe < 0)
            sp.keyframe = c63_scene.key;
    }
    __syncthreads();
    if (i < sp.nblocks) {
        int bx;
        blk[tid] = c63ec_coded_block(&sp, i, &bx);
    }
    __syncthreads();
    for (int k = tid; k < 8 * C63EC_CODE_THREADS; k += C63EC_CODE_THREADS) {
        const int lb = k >> 3, part = k & 7;
        if (i0 + lb < sp.nblocks) {
            const uint4 v = ((const uint4 *)(coef + 64 * blk[lb]))[part];
            u32 *d = (u32 *)(cs + lb * C63EC_STAGE_STRIDE) + 4 * part;
            d[0] = v.x;
            d[1] = v.y;
            d[2] = v.z;
            d[3] = v.w;
        }
    }
    __syncthreads();
    if (i < sp.nblocks)
        ((u32 *)p.len)[i] = c63ec_code_block(&sp, &t, coef, cs + tid * C63EC_STAGE_STRIDE,
                                             (const C63ECMV *)sp.mv, i,
                                             (u32 *)sp.slots + (u64)i * C63EC_SLOT_WORDS);
}

/* Stage 2a: the bits of each chunk of C63EC_CHUNK coded blocks. */
extern "C" __global__ void __launch_bounds__(C63EC_THREADS)
c63_ec_sum(C63ECParams p)
{
    const u32 *len = (const u32 *)p.len;
    const int base = blockIdx.x * C63EC_CHUNK + 4 * threadIdx.x;
    u64 s = 0, total;

    for (int j = 0; j < 4; j++)
        if (base + j < p.nblocks)
            s += len[base + j];
    ec_block_scan(s, &total);
    if (!threadIdx.x)
        ((u64 *)p.sums)[blockIdx.x] = total;
}

/* Stage 2b: each coded block's bit offset, from the sums of the chunks
 * before this one; the last chunk's end is the frame's bit count. */
extern "C" __global__ void __launch_bounds__(C63EC_THREADS)
c63_ec_apply(C63ECParams p)
{
    const u32 *len = (const u32 *)p.len;
    u64 *off = (u64 *)p.off;
    const int base = blockIdx.x * C63EC_CHUNK + 4 * threadIdx.x;
    const u64 before = ec_sum_before((const u64 *)p.sums, blockIdx.x);
    u64 s = 0, o, total;

    for (int j = 0; j < 4; j++)
        if (base + j < p.nblocks)
            s += len[base + j];
    o = before + ec_block_scan(s, &total);
    for (int j = 0; j < 4; j++)
        if (base + j < p.nblocks) {
            off[base + j] = o;
            o += len[base + j];
        }
    if (blockIdx.x == p.nchunks - 1 && !threadIdx.x)
        ((C63ECInfo *)p.info)->bits = before + total;
}

/*
 * Stages 3 and 4: one thread per word of the frame's bits, C63EC_THREADS
 * words (a chunk) a thread block, grid-stride over the chunks. Stage 3
 * (stuff = 0) gathers each word from the blocks' slots and stores each
 * chunk's count of 0xFF bytes; stage 4 writes each word's whole bytes,
 * a 0x00 after each 0xFF, into the packet after the header and the 0x00
 * bytes of the 0xFF bytes before them (the counts of the chunks before,
 * then the block's scan). In stage 4 the first thread block writes the
 * header, and the one of the last chunk, which knows the frame's 0xFF
 * bytes, the tail (end of data, EOI) and the packet size.
 */
static __device__ __forceinline__ void ec_words(const C63ECParams &p, int stuff)
{
    u64 nbits, nwords, wchunks, total;
    u8 *pkt = (u8 *)p.pkt;

    ec_sizes(p, &nbits, &nwords, &wchunks);
    if (stuff && !blockIdx.x)
        c63ec_header(pkt, (const u8 *)p.hdr, p.keyframe < 0 ? c63_scene.key : p.keyframe,
                     threadIdx.x, C63EC_THREADS);
    for (u64 c = blockIdx.x; c < wchunks; c += gridDim.x) {
        const u64 wi = c * C63EC_THREADS + threadIdx.x;
        const int in = wi < nwords;
        u32 w = 0;
        u64 before, prefix = 0;
        if (in && stuff)
            w = ((const u32 *)p.words)[wi];
        else if (in)
            ((u32 *)p.words)[wi] = w = c63ec_gather_word((const u64 *)p.off, (const u32 *)p.len,
                                                         (const u32 *)p.slots, p.nblocks,
                                                         nbits, wi);
        if (stuff)
            prefix = ec_sum_before((const u64 *)p.ffsum, c);
        before = ec_block_scan(in ? c63ec_word_ff(w, wi, nbits / 8) : 0, &total);
        if (!stuff && !threadIdx.x)
            ((u64 *)p.ffsum)[c] = total;
        if (stuff && in)
            c63ec_stuff_word(pkt + C63EC_HEADER_SIZE + 4 * wi + prefix + before, w, wi, nbits / 8);
        if (stuff && c == wchunks - 1 && !threadIdx.x) {
            C63ECInfo *info = (C63ECInfo *)p.info;
            const u64 nff = prefix + total, pos = C63EC_HEADER_SIZE + nbits / 8 + nff;
            info->nff  = nff;
            info->size = pos + c63ec_tail(pkt + pos, (const u32 *)p.words, nbits);
        }
    }
}

/* Stage 3: the words of the frame's bits; 0xFF bytes per chunk. */
extern "C" __global__ void __launch_bounds__(C63EC_THREADS)
c63_ec_gather(C63ECParams p)
{
    ec_words(p, 0);
}

/* Stage 4: the packet, header to EOI, and its size. */
extern "C" __global__ void __launch_bounds__(C63EC_THREADS)
c63_ec_stuff(C63ECParams p)
{
    ec_words(p, 1);
}

/* ------------------------------------------------------------ decoding */

/* The tables into shared memory, by all the threads of a block. */
static __device__ __forceinline__ void c63_hd_load_tables(C63HDTables *t, const C63HDParams &p)
{
    const u32 *src = (const u32 *)p.tables;
    u32 *dst = (u32 *)t;
    for (int i = threadIdx.x; i < (int)(sizeof(*t) / 4); i += blockDim.x)
        dst[i] = src[i];
}

/* The data's end is a marker that is EOI (else the host reports). */
static __device__ __forceinline__ int c63_hd_ok(const C63HDParams &p)
{
    const C63HDStatus *st = (const C63HDStatus *)p.status;
    return st->marker != C63HD_NOMARKER && ((const u8 *)p.pkt)[st->marker + 1] == 0xD9;
}

/* What the decoding stages start with: 0 where the data's end is no EOI
 * (nothing to do); else the tables in shared memory (all threads of the
 * block call it) and *limit, c63hd_limit() of the size. */
static __device__ __forceinline__ int c63_hd_prepare(const C63HDParams &p, C63HDTables *t,
                                                     unsigned *limit)
{
    if (!c63_hd_ok(p))
        return 0;
    *limit = c63hd_limit(((const C63HDStatus *)p.status)->size);
    c63_hd_load_tables(t, p);
    __syncthreads();
    return 1;
}

/* Unstuffing, stage 1: each chunk's stuffed bytes and the first marker. */
extern "C" __global__ void __launch_bounds__(C63HD_CHUNK_THREADS)
c63_hd_chunks(C63HDParams p)
{
    __shared__ u32 count;
    const u8 *pkt = (const u8 *)p.pkt;
    const int per = C63HD_CHUNK / C63HD_CHUNK_THREADS;
    const int i0 = blockIdx.x * C63HD_CHUNK + threadIdx.x * per;
    u32 n = 0, m = C63HD_NOMARKER;

    if (!threadIdx.x)
        count = 0;
    __syncthreads();
    for (int i = i0; i < i0 + per && i < p.pkt_size; i++) {
        n += c63hd_stuffed(pkt, i);
        if (m == C63HD_NOMARKER && c63hd_marker(pkt, i))
            m = i;
    }
    if (n)
        atomicAdd(&count, n);
    if (m != C63HD_NOMARKER)
        atomicMin(&((C63HDStatus *)p.status)->marker, m);
    __syncthreads();
    if (!threadIdx.x)
        ((u32 *)p.chunks)[blockIdx.x] = count;
}

/* Unstuffing, stage 2: each chunk's kept bytes before the marker to their
 * place; the chunk holding the marker sets the size. */
extern "C" __global__ void __launch_bounds__(C63HD_CHUNK_THREADS)
c63_hd_unstuff(C63HDParams p)
{
    __shared__ u32 scan[C63HD_CHUNK_THREADS];
    const u8 *pkt = (const u8 *)p.pkt;
    u8 *data = (u8 *)p.data;
    const u32 *chunks = (const u32 *)p.chunks;
    C63HDStatus *st = (C63HDStatus *)p.status;
    const int per = C63HD_CHUNK / C63HD_CHUNK_THREADS, t = threadIdx.x;
    const int c0 = blockIdx.x * C63HD_CHUNK, i0 = c0 + t * per;
    u32 before = 0, n = 0, m;

    if (!c63_hd_ok(p))
        return;
    m = st->marker;
    if ((u32)c0 >= m)
        return;
    /* the stuffed bytes of the chunks before, and of this chunk's threads
     * before this one */
    for (int c = t; c < (int)blockIdx.x; c += C63HD_CHUNK_THREADS)
        before += chunks[c];
    for (int i = i0; i < i0 + per && (u32)i < m; i++)
        n += c63hd_stuffed(pkt, i);
    scan[t] = before;
    __syncthreads();
    for (int o = C63HD_CHUNK_THREADS / 2; o; o >>= 1) {
        if (t < o)
            scan[t] += scan[t + o];
        __syncthreads();
    }
    before = scan[0];
    __syncthreads();
    scan[t] = n;
    __syncthreads();
    for (int o = 1; o < C63HD_CHUNK_THREADS; o <<= 1) {
        const u32 v = t >= o ? scan[t - o] : 0;
        __syncthreads();
        scan[t] += v;
        __syncthreads();
    }
    before += scan[t] - n;
    for (int i = i0; i < i0 + per && (u32)i < m; i++) {
        if (c63hd_stuffed(pkt, i))
            before++;
        else
            data[i - before] = pkt[i];
    }
    if ((u32)i0 <= m && m < (u32)(i0 + per))
        st->size = m - before;
}

/* One group's rounds (c63hd_group_rounds() of the twin), by its threads:
 * unit u (thread u < n) holds en, ex and sum, ex_s shares the exits. */
static __device__ __forceinline__ int c63_hd_rounds(const C63HDParams &p, const C63HDTables *t,
                                                    unsigned limit, int s0, int n, int u,
                                                    c63hd_state *en, c63hd_state *ex, C63HDSum *sum,
                                                    c63hd_state *ex_s)
{
    const u8 *data = (const u8 *)p.data;
    int rounds = 0;

    for (;;) {
        int changed = 0;
        c63hd_state prev;
        __syncthreads();
        prev = u >= 1 && u < n ? ex_s[u - 1] : *en;
        __syncthreads();
        if (u >= 1 && u < n && prev != *en) {
            *en = prev;
            sum->blocks = sum->dc[0] = sum->dc[1] = sum->dc[2] = 0;
            *ex = c63hd_run(data, t, p.keyframe, *en, (unsigned)(s0 + u) * C63HD_SEG_BITS,
                            limit, sum, 0);
            ex_s[u] = *ex;
            changed = 1;
        }
        rounds++;
        if (!__syncthreads_or(changed) || rounds > C63HD_GROUP)
            return rounds;
    }
}

/* Synchronisation: a group a block, unit 0 its overlap. */
extern "C" __global__ void __launch_bounds__(C63HD_GROUP)
c63_hd_sync(C63HDParams p)
{
    __shared__ C63HDTables t;
    __shared__ c63hd_state ex_s[C63HD_GROUP];
    int s0;
    const int n = c63hd_group(p.nsegs, blockIdx.x, &s0), u = threadIdx.x, s = s0 + u - 1;
    C63HDSum sum = { 0, { 0, 0, 0 } };
    c63hd_state en = 0, ex = 0;
    unsigned limit;

    if (!c63_hd_prepare(p, &t, &limit))
        return;
    if (!u) {       /* the overlap: its exit is the group's first entry */
        C63HDSum none = { 0, { 0, 0, 0 } };
        en = c63hd_overlap_start(s0);
        ex = !s0 ? en : c63hd_run((const u8 *)p.data, &t, p.keyframe, en,
                                  (unsigned)s0 * C63HD_SEG_BITS, limit, &none, 0);
    } else if (u < n) {
        en = C63HD_GUESS(s);
        ex = c63hd_run((const u8 *)p.data, &t, p.keyframe, en,
                       (unsigned)(s + 1) * C63HD_SEG_BITS, limit, &sum, 0);
    }
    ex_s[u] = ex;
    c63_hd_rounds(p, &t, limit, s0, n, u, &en, &ex, &sum, ex_s);
    if (u >= 1 && u < n) {
        ((c63hd_state *)p.entry)[s] = en;
        ((c63hd_state *)p.exit)[s]  = ex;
        ((C63HDSum *)p.sums)[s]     = sum;
    }
}

#define C63HD_RESOLVE_THREADS 1024

/* Resolution, one block: the groups whose overlap missed their
 * predecessor's true exit decoded again in order; then the sums of the
 * segments before each. */
extern "C" __global__ void __launch_bounds__(C63HD_RESOLVE_THREADS)
c63_hd_resolve(C63HDParams p)
{
    __shared__ C63HDTables t;
    __shared__ c63hd_state ex_s[C63HD_GROUP];
    __shared__ int scan[4][C63HD_RESOLVE_THREADS];
    C63HDStatus *st = (C63HDStatus *)p.status;
    c63hd_state *entry = (c63hd_state *)p.entry, *exit_ = (c63hd_state *)p.exit;
    C63HDSum *sums = (C63HDSum *)p.sums;
    const int u = threadIdx.x;
    unsigned limit;
    int per, first;
    C63HDSum acc = { 0, { 0, 0, 0 } };

    if (!c63_hd_prepare(p, &t, &limit))
        return;
    for (int g = 1; g < p.ngroups; g++) {
        int s0;
        const int n = c63hd_group(p.nsegs, g, &s0);
        c63hd_state en = 0, ex = 0;
        C63HDSum sum = { 0, { 0, 0, 0 } };
        __syncthreads();        /* the last group's writes */
        if (entry[s0] == exit_[s0 - 1])
            continue;
        if (!u) {
            en = ex = exit_[s0 - 1];
            st->redone++;
        } else if (u < n) {
            en  = entry[s0 + u - 1];
            ex  = exit_[s0 + u - 1];
            sum = sums[s0 + u - 1];
        }
        if (u < C63HD_GROUP)
            ex_s[u] = ex;
        /* the rounds with the group's threads; the others wait at the
         * same barriers */
        c63_hd_rounds(p, &t, limit, s0, u < C63HD_GROUP ? n : 0, u, &en, &ex, &sum, ex_s);
        if (u >= 1 && u < n) {
            entry[s0 + u - 1] = en;
            exit_[s0 + u - 1] = ex;
            sums[s0 + u - 1]  = sum;
        }
    }
    __syncthreads();

    /* exclusive scan of the sums: a run of segments a thread */
    per   = (p.nsegs + C63HD_RESOLVE_THREADS - 1) / C63HD_RESOLVE_THREADS;
    first = u * per;
    for (int s = first; s < first + per && s < p.nsegs; s++) {
        acc.blocks += sums[s].blocks;
        for (int i = 0; i < 3; i++)
            acc.dc[i] += sums[s].dc[i];
    }
    scan[0][u] = acc.blocks;
    for (int i = 0; i < 3; i++)
        scan[1 + i][u] = acc.dc[i];
    __syncthreads();
    for (int o = 1; o < C63HD_RESOLVE_THREADS; o <<= 1) {
        int v[4];
        for (int i = 0; i < 4; i++)
            v[i] = u >= o ? scan[i][u - o] : 0;
        __syncthreads();
        for (int i = 0; i < 4; i++)
            scan[i][u] += v[i];
        __syncthreads();
    }
    acc.blocks = scan[0][u] - acc.blocks;
    for (int i = 0; i < 3; i++)
        acc.dc[i] = scan[1 + i][u] - acc.dc[i];
    for (int s = first; s < first + per && s < p.nsegs; s++) {
        const C63HDSum v = sums[s];
        sums[s] = acc;
        acc.blocks += v.blocks;
        for (int i = 0; i < 3; i++)
            acc.dc[i] += v.dc[i];
    }
}

/* Writing: a segment a thread, from its true entry. */
extern "C" __global__ void __launch_bounds__(C63HD_GROUP)
c63_hd_write(C63HDParams p)
{
    __shared__ C63HDTables t;
    C63HDStatus *st = (C63HDStatus *)p.status;
    const int s = blockIdx.x * C63HD_GROUP + threadIdx.x;
    C63HDSum sum = { 0, { 0, 0, 0 } }, base;
    C63HDOut o;
    unsigned limit;

    if (!c63_hd_prepare(p, &t, &limit))
        return;
    if (s >= p.nsegs)
        return;
    base    = ((const C63HDSum *)p.sums)[s];
    o.p     = &p;
    o.error = &st->error;
    for (int i = 0; i < 3; i++)
        o.dc[i] = base.dc[i];
    c63hd_begin_block(&o, base.blocks - 1);
    c63hd_run((const u8 *)p.data, &t, p.keyframe, ((const c63hd_state *)p.entry)[s],
              (unsigned)(s + 1) * C63HD_SEG_BITS, limit, &sum, &o);
}

/* Vectors and row ends: a block row a warp (the luma rows, then U, then
 * V), 32 blocks at a time; warp w also checks macroblock row w's end. */
extern "C" __global__ void __launch_bounds__(128)
c63_hd_fixup(C63HDParams p)
{
    C63HDStatus *st = (C63HDStatus *)p.status;
    const unsigned *info = (const unsigned *)p.info;
    const int lane = threadIdx.x & 31, row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int plane = 0, by = row;
    unsigned left = 0, src = 0;
    c63hd_u64 err = C63HD_NO_ERROR;

    if (!c63_hd_ok(p))
        return;
    if (!lane && row < p.mb_h)
        err = c63hd_row_end(&p, (const unsigned *)p.start, st->size, row);
    while (plane < 3 && by >= p.bh[plane])
        by -= p.bh[plane++];
    if (plane < 3) {
        for (int x0 = 0; x0 < p.bw[plane]; x0 += 32) {
            const int bx = x0 + lane, valid = bx < p.bw[plane];
            const unsigned in = valid ? info[c63hd_coding_index(&p, plane, bx, by)] : 0;
            const unsigned expl = __ballot_sync(0xFFFFFFFFu, valid && (in & 3) == 1);
            const unsigned le = expl & (0xFFFFFFFFu >> (31 - lane));
            const unsigned l = (unsigned)__shfl_up_sync(0xFFFFFFFFu, (int)in, 1);
            const unsigned from = (unsigned)__shfl_sync(0xFFFFFFFFu, (int)in,
                                                        le ? 31 - __clz((int)le) : 0);
            const unsigned my_src = le ? from : src;
            const unsigned my_left = lane ? l : left;
            if (valid) {
                const c63hd_u64 k = c63hd_vector(&p, plane, bx, by, in, my_left, my_src,
                                                 (signed char *)p.mv +
                                                 2 * ((size_t)p.first[plane] + (size_t)by * p.bw[plane] + bx));
                err = k < err ? k : err;
            }
            src  = (unsigned)__shfl_sync(0xFFFFFFFFu, (int)my_src, 31);
            left = (unsigned)__shfl_sync(0xFFFFFFFFu, (int)in, 31);
        }
    }
    if (err != C63HD_NO_ERROR)
        atomicMin(&st->error, err);
}
