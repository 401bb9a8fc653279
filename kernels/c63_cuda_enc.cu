/*
 * Codec63 CUDA kernels: the c63_cuda encoder
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
 * The kernels that every c63_cuda encoder loads (libavcodec/c63/
 * c63enc_cuda.c). Each one gives exactly what its CPU twin gives
 * (libavcodec/c63: c63me.c, c63dsp.c, c63put.c), bit for bit:
 *
 *   c63_convert      the input planes (planar, or an interleaved UV plane)
 *                    into the zero-padded coding planes, one launch a frame
 *   c63_sc_hist,     scene cuts (c63_scene.h): the luma histogram, then the
 *   c63_sc_decide    keyframe decision into c63_scene, which the kernels
 *                    read where the host passes them -1 for key (the
 *                    kernels of c63_cuda_rd.cu through the address the
 *                    host gives them)
 *   c63_meN          full-search motion estimation (docs/c63-format.md
 *                    section 7.3), N candidate rows a work item
 *   c63_encode       motion compensation, residual, forward DCT,
 *                    quantisation, dequantisation, inverse DCT and
 *                    reconstruction (docs/c63-format.md sections 6 and 7;
 *                    c63_block.h)
 *   c63_ec_*         entropy coding, header to EOI, of the coefficients
 *                    and vectors (docs/c63-format.md section 5): the stages of
 *                    c63_ec.h, each the same code as its CPU twin
 *
 * The kernels of the rate-distortion and rate-control options are a
 * module of their own (c63_cuda_rd.cu), loaded only where those options
 * are on, and the decoder's another (c63_cuda_dec.cu): the driver
 * compiles a module whole when it loads it, so each pipeline compiles
 * only what it runs.
 *
 * Built by FFmpeg with clang (--enable-cuda-llvm, compat/cuda/cuda_runtime.h
 * plus cuda_compat.h) or with nvcc; both give the same PTX operations.
 */

#include "c63_block.h"
#include "block_match.h"
#include "c63_convert.h"
#include "c63_ec.h"

/* The scene-cut state and decision of the frame being coded (c63_scene.h). */
__device__ C63SceneState c63_scene;

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


extern "C" __global__ void __launch_bounds__(C63_ENC_THREADS)
c63_encode(C63EncParams e)
{
    c63_encode_body<C63_ENC_PLAIN>(e);
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
