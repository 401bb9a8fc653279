/*
 * Codec63 CUDA kernels: the rate-distortion and rate-control options of c63_cuda
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
 * The kernels that a c63_cuda encoder loads only where its options use
 * them (libavcodec/c63/c63enc_cuda.c), each bit for bit its CPU twin's
 * (c63rd.h, c63scene.h):
 *
 *   c63_activity     the activity of an input picture (c63_scene.h), for
 *                    the buffer model of rate control
 *   c63_encode_rd    c63_encode with trellis quantisation (-trellis 1)
 *   c63_encode_rdq,  -trellis 2: the levels and each block's exact DC,
 *   c63_dc_chain,    the DC levels of each chain, then the reconstruction
 *   c63_recon        from the levels (c63_block.h, c63_rd.h)
 *   c63_mv_rd_pre,   the vector decisions of -mv_rd and -intra_rd: the
 *   c63_mv_rd        SADs that do not depend on the decisions and each
 *                    block's decision for every state its left neighbour
 *                    can leave, a thread a block, then the walk over the
 *                    states, a warp a block row
 *
 * Where the host passes key -1 (scene cuts), the kernels read the decision
 * from the C63SceneState at the address it gives them: c63_scene of the
 * encoder's module (c63_cuda_enc.cu).
 */

#include "c63_block.h"

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

/* v of lane lane - d (long long in two shuffles). */
static __device__ __forceinline__ long long c63_shfl_up_ll(long long v, int d)
{
    const int lo = __shfl_up_sync(0xFFFFFFFFu, (int)(unsigned)v, d);
    const int hi = __shfl_up_sync(0xFFFFFFFFu, (int)(v >> 32), d);
    return (long long)((unsigned long long)(unsigned)hi << 32 | (unsigned)lo);
}

static __device__ __forceinline__ long long c63_shfl_ll(long long v, int l)
{
    const int lo = __shfl_sync(0xFFFFFFFFu, (int)(unsigned)v, l);
    const int hi = __shfl_sync(0xFFFFFFFFu, (int)(v >> 32), l);
    return (long long)((unsigned long long)(unsigned)hi << 32 | (unsigned)lo);
}

static __device__ __forceinline__ long long c63_min_ll(long long a, long long b)
{
    return b < a ? b : a;
}

/*
 * -trellis 2 (c63_rd.h): one warp a chain (the blocks of an MCU row of a
 * plane in coding order), as the CPU's c63_rd_dc_chain(). The lanes take
 * 32 blocks at a time: each its block's candidates and weights
 * (c63_rd_dc_weights(), the candidates of the block before from the lane
 * before, or for the first lane from the last of the 32 before), while the
 * next 32 blocks' levels and exact DCs are being loaded. The steps
 * (c63_rd_dc_advance()) of the 32 blocks are taken at once: a step is the
 * min-plus product of the block's 2 x 2 weights with the costs before it,
 * so a scan of the lanes' products gives each lane the costs before its
 * block, exactly (integers), and from them its way back, kept in shared
 * memory. At the end the walk back goes 32 blocks at a time from the last:
 * each block's choice is the composition of the ways back of the blocks
 * after it in the 32 applied to the choice of the last of them (a scan of
 * the compositions); the lanes then set the levels of the blocks whose
 * choice is the second candidate.
 */
extern "C" __global__ void __launch_bounds__(32)
c63_dc_chain(C63DCChainParams d)
{
    __shared__ u8 back[C63_DC_CHAIN_MAX];
    __shared__ u8 dcl[2][12];
    const int lane = threadIdx.x, c = blockIdx.x;
    const int pi = c >= d.p[2].first_chain ? 2 : c >= d.p[1].first_chain ? 1 : 0;
    const C63DCChainPlane pl = d.p[pi];
    const int v = c - pl.first_chain, luma = !pi, n = luma ? 2 * pl.bw : pl.bw;
    const int q = ((const u8 *)d.q)[pi * 64];
    short *coef = (short *)d.coef;
    const int *dcz = (const int *)d.dcz;
    long long cost[2] = { 0, 0 }, err[2];
    int lv[2], lp[2] = { 0, 0 }, l = 0, z = 0, s;

    if (lane < 24)
        dcl[lane / 12][lane % 12] = ((const u8 *)d.dc_len)[lane];
    if (lane < n) {
        const int b = pl.first + c63_rd_dc_block(lane, luma, pl.bw, v);
        l = coef[(size_t)64 * b];
        z = dcz[b];
    }
    __syncwarp();
    for (int i0 = 0; i0 < n; i0 += 32) {
        const int i = i0 + lane, last = min(31, n - 1 - i0);
        long long w[4] = { 0, 0, 0, 0 }, m[4], c0, c1, q0, q1;
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
        }
        if (i + 32 < n) {       /* the next 32 blocks, while the steps run */
            const int b = pl.first + c63_rd_dc_block(i + 32, luma, pl.bw, v);
            l = coef[(size_t)64 * b];
            z = dcz[b];
        }
        /* m: the product of the weights of the blocks up to the lane's
         * (m[2 s + t]: from candidate t before the 32 to the lane's s) */
#pragma unroll
        for (int k = 0; k < 4; k++)
            m[k] = w[k];
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            long long e[4];
#pragma unroll
            for (int k = 0; k < 4; k++)
                e[k] = c63_shfl_up_ll(m[k], o);
            if (lane >= o) {
                const long long n0 = c63_min_ll(m[0] + e[0], m[1] + e[2]);
                const long long n1 = c63_min_ll(m[0] + e[1], m[1] + e[3]);
                const long long n2 = c63_min_ll(m[2] + e[0], m[3] + e[2]);
                const long long n3 = c63_min_ll(m[2] + e[1], m[3] + e[3]);
                m[0] = n0;
                m[1] = n1;
                m[2] = n2;
                m[3] = n3;
            }
        }
        /* the costs after the lane's block, then before it */
        c0 = c63_min_ll(m[0] + cost[0], m[1] + cost[1]);
        c1 = c63_min_ll(m[2] + cost[0], m[3] + cost[1]);
        q0 = c63_shfl_up_ll(c0, 1);
        q1 = c63_shfl_up_ll(c1, 1);
        if (!lane) {
            q0 = cost[0];
            q1 = cost[1];
        }
        if (i < n) {
            long long pc[2] = { q0, q1 };
            back[i] = c63_rd_dc_advance(pc, w);
        }
        cost[0] = c63_shfl_ll(c0, last);
        cost[1] = c63_shfl_ll(c1, last);
    }
    __syncwarp();
    /* the way back: s the choice of the 32's last block; the way back of
     * block i, as a table t (bit s: the choice of block i - 1 where block
     * i's is s), is back[i] */
    s = cost[1] < cost[0];
    for (int i0 = (n - 1) & ~31; i0 >= 0; i0 -= 32) {
        const int i = i0 + lane, last = min(31, n - 1 - i0);
        const int own = lane <= last ? back[i] : 0;
        int g = lane < last ? back[i + 1] : 2;      /* 2: the identity */
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const int h = (int)__shfl_down_sync(0xFFFFFFFFu, (unsigned)g, o);
            if (lane + o < 32)
                g = (g >> (h & 1) & 1) | (g >> (h >> 1 & 1) & 1) << 1;  /* g after h */
        }
        const int ch = g >> s & 1;
        s = __shfl_sync(0xFFFFFFFFu, own >> ch & 1, 0);    /* block i0 - 1's */
        __syncwarp();
        if (lane <= last)
            back[i] = ch;
        __syncwarp();
    }
    for (int i = lane; i < n; i += 32)
        if (back[i]) {
            const int b = pl.first + c63_rd_dc_block(i, luma, pl.bw, v);
            c63_rd_dc_cands(coef[(size_t)64 * b], dcz[b], q, lv, err);
            coef[(size_t)64 * b] = lv[1];
        }
}

/* ------------------------------------------------------ vector decision */

/*
 * -mv_rd and -intra_rd (c63_rd.h), as the CPU's c63_rd_choose_mv(), in two
 * launches: c63_mv_rd_pre takes a block's SADs and its decisions for each
 * state with one thread, from the block's rows as pairs of words;
 * c63_mv_rd walks the block rows (see there).
 */
static __device__ __forceinline__ int c63_mv_inside(c63_mv v, int x, int y, int w, int h)
{
    return !(x + v.x < 0 || x + v.x > w - 8 || y + v.y < 0 || y + v.y > h - 8);
}

static __device__ __forceinline__ int c63_mv_eq(c63_mv a, c63_mv b)
{
    return a.x == b.x && a.y == b.y;
}

/* A vector packed in an int. */
static __device__ __forceinline__ int c63_mv_pack(c63_mv v)
{
    return (int)(unsigned char)v.x | (int)(unsigned char)v.y << 8;
}

static __device__ __forceinline__ c63_mv c63_mv_unpack(int p)
{
    c63_mv v;
    v.x = (signed char)(p & 0xFF);
    v.y = (signed char)(p >> 8 & 0xFF);
    return v;
}

/* The plane of block (or block row) i and its fields. */
#define MVRD_PLANE(i, firstf) \
    ((i) >= m.p[2].firstf ? 2 : (i) >= m.p[1].firstf ? 1 : 0)
#define MVRD_FIELD(pi, f) ((pi) == 2 ? m.p[2].f : (pi) == 1 ? m.p[1].f : m.p[0].f)

/* The sum of the 4 bytes of v. */
static __device__ __forceinline__ int c63_bytes_sum(u32 v)
{
    return (int)ffc_vsadu4_add(v, 0, 0);
}

/* c63_rd_mean_sad8() of the residual cur - ref (rows of two words each;
 * ref NULL: cur) whose sum is s. */
static __device__ __forceinline__ int c63_mean_sad_rows(const u32 cur[8][2], const u32 ref[8][2],
                                                        int s)
{
    const int mean = (s + 32) >> 6;
    int sad = 0;
#pragma unroll
    for (int r = 0; r < 8; r++)
#pragma unroll
        for (int k = 0; k < 8; k++) {
            const int d = (int)(cur[r][k >> 2] >> 8 * (k & 3) & 0xFF) -
                          (ref ? (int)(ref[r][k >> 2] >> 8 * (k & 3) & 0xFF) : 0) - mean;
            sad += d < 0 ? -d : d;
        }
    return sad;
}

/* The block c (rows of two words, its samples summing to csum) against the
 * 8x8 block at rp (w the stride): the SAD into *sad and, with intra, the
 * residual's sum and its SAD from its mean into *psum and *psad. */
static __device__ __forceinline__ void c63_mvrd_sads(const u32 c[8][2], int csum, const u8 *rp,
                                                     int w, int intra, int *sad, int *psad,
                                                     int *psum)
{
    u32 rr[8][2];
    int d = 0, rsum = 0;
#pragma unroll
    for (int r = 0; r < 8; r++) {
        c63_load8(rp + (ptrdiff_t)r * w, &rr[r][0], &rr[r][1]);
        d = (int)ffc_vsadu4_add(c[r][0], rr[r][0], ffc_vsadu4_add(c[r][1], rr[r][1], d));
        rsum += c63_bytes_sum(rr[r][0]) + c63_bytes_sum(rr[r][1]);
    }
    *sad = d;
    if (intra) {
        *psum = csum - rsum;
        *psad = c63_mean_sad_rows(c, rr, *psum);
    }
}

/* The rows of block cur (w the stride) as pairs of words; returns the sum
 * of its samples. */
static __device__ __forceinline__ int c63_mvrd_rows(const u8 *cur, int w, u32 c[8][2])
{
    int csum = 0;
#pragma unroll
    for (int r = 0; r < 8; r++) {
        const uint2 q = *(const uint2 *)(cur + (size_t)r * w);
        c[r][0] = q.x;
        c[r][1] = q.y;
        csum += c63_bytes_sum(q.x) + c63_bytes_sum(q.y);
    }
    return csum;
}

/* a[slot], the slots' values held in registers: no index into them. */
static __device__ __forceinline__ int c63_mvrd_pick(const int a[C63_MVRD_SLOTS], int slot)
{
    int r = -1;
#pragma unroll
    for (int k = 0; k < C63_MVRD_SLOTS; k++)
        if (slot == k)
            r = a[k];
    return r;
}

/*
 * The slot of pre (C63MVRDPre) that holds vector v of block bx, a
 * candidate inside the plane, or -1: best the block's best-SAD vector,
 * hist[k] that of the block k + 1 to the left.
 */
static __device__ __forceinline__ int c63_mvrd_slot(c63_mv v, c63_mv best,
                                                    const c63_mv hist[C63_MVRD_BACK], int bx,
                                                    int mv_mode)
{
    if (c63_mv_eq(v, best))
        return 0;
    if (!mv_mode)
        return -1;
    if (!v.x && !v.y)
        return 1;
#pragma unroll
    for (int k = 0; k < C63_MVRD_BACK; k++)
        if (bx > k && c63_mv_eq(v, hist[k]))
            return 2 + k;
    return -1;
}

/* What a block of c63_mv_rd is: its plane and place, its pictures. */
typedef struct C63MVRDBlock {
    c63_mv best, hist[C63_MVRD_BACK];   ///< best-SAD vectors: its own, those to its left
    int bx, x, y, w, h, qdc;
    const u8 *cur, *ref;                ///< the block row, the reference plane
} C63MVRDBlock;

/*
 * c63_rd_choose_mv() of block k whose left neighbour chose left (has_left
 * 0: none), its SADs from pre where its slots hold the vectors; where they
 * do not (left, a choice from further left), miss holds left's SAD, and
 * with -intra_rd its residual's SAD from the mean and its sum.
 */
static __device__ __forceinline__ c63_mv c63_mvrd_decide(const C63MVRDParams &m, const C63MVRDPre &pr,
                                                         const C63MVRDBlock &k, c63_mv left,
                                                         int has_left, const int miss[3])
{
    const int mv_mode = m.modes & C63_RD_MV;
    c63_mv ret = k.best, zero;
    int cost_min = 0x7fffffff, bits_min = 0, ret_slot = 0;
    zero.x = zero.y = 0;
#pragma unroll
    for (int i = 0; i < 3; i++) {
        c63_mv v;
        if (i != 1 && !mv_mode)
            continue;
        if (i == 0) {
            if (!has_left)
                continue;
            v = left;
        } else if (i == 1) {
            v = k.best;
        } else {
            v = zero;
        }
        if (!c63_mv_inside(v, k.x, k.y, k.w, k.h))
            continue;
        const int slot = c63_mvrd_slot(v, k.best, k.hist, k.bx, mv_mode);
        const int sad = slot < 0 ? miss[0] : c63_mvrd_pick(pr.sad, slot);
        const int reuse = has_left && c63_mv_eq(v, left);
        const int bits = c63_rd_mv_bits(v.x, v.y, reuse);
        const int cost = c63_rd_mv_cost(sad, bits, m.lambda_me);
        if (cost < cost_min) {
            cost_min = cost;
            bits_min = bits;
            ret = v;
            ret_slot = slot;
        }
    }
    if (m.modes & C63_RD_INTRA) {
        const int sad_p = ret_slot < 0 ? miss[1] : c63_mvrd_pick(pr.psad, ret_slot);
        const int sum_p = ret_slot < 0 ? miss[2] : c63_mvrd_pick(pr.psum, ret_slot);
        if (c63_rd_mv_cost(pr.isad + C63_RD_INTRA_BIAS, 1 + c63_rd_dc_bits(pr.isum, k.qdc),
                           m.lambda_me) <
            c63_rd_mv_cost(sad_p, bits_min + c63_rd_dc_bits(sum_p, k.qdc), m.lambda_me)) {
            ret.x = C63_MV_INTRA;
            ret.y = 0;
        }
    }
    return ret;
}

/* The state that block k's choice r leaves to the next block: the first
 * whose vector is r. */
static __device__ __forceinline__ int c63_mvrd_state(c63_mv r, const C63MVRDBlock &k)
{
    if (r.x == C63_MV_INTRA)
        return 0;
    if (c63_mv_eq(r, k.best))
        return 2;
    if (!r.x && !r.y)
        return 1;
#pragma unroll
    for (int i = 0; i < C63_MVRD_STATES - 3; i++)
        if (k.bx > i && c63_mv_eq(r, k.hist[i]))
            return 3 + i;
    return C63_MVRD_FAR;
}

/* c63_mv_rd_pre: a thread a block. */
extern "C" __global__ void __launch_bounds__(C63_MVRD_PRE_THREADS)
c63_mv_rd_pre(C63MVRDParams m)
{
    const int b = blockIdx.x * C63_MVRD_PRE_THREADS + threadIdx.x;
    if (b >= m.nblocks || (m.scene && ((const C63SceneState *)m.scene)->key))
        return;
    const int pi = MVRD_PLANE(b, first);
    const int w = MVRD_FIELD(pi, w), h = MVRD_FIELD(pi, h), first = MVRD_FIELD(pi, first);
    const int lb = b - first, bw = w >> 3, by = lb / bw, bx = lb - by * bw;
    const int x = 8 * bx, y = 8 * by, intra = m.modes & C63_RD_INTRA;
    const u8 *cur = (const u8 *)m.orig + (size_t)64 * first + (size_t)y * w + x;
    const u8 *ref = (const u8 *)m.ref  + (size_t)64 * first;
    const c63_mv *mv = (const c63_mv *)m.mv + b;
    C63MVRDBlock k;
    C63MVRDPre o;
    u32 c[8][2];
    const int csum = c63_mvrd_rows(cur, w, c);
    const int none[3] = { 0, 0, 0 };    /* every vector is in a slot */

    k.best = mv[0];
#pragma unroll
    for (int i = 0; i < C63_MVRD_BACK; i++) {
        k.hist[i].x = C63_MV_INTRA;     /* none */
        k.hist[i].y = 0;
        if (bx > i)
            k.hist[i] = mv[-1 - i];
    }
#pragma unroll 1
    for (int i = 0; i < C63_MVRD_SLOTS; i++) {
        c63_mv v;
        int sad;
        if (i == 1)
            v.x = v.y = 0;
        else
            v = i ? k.hist[i - 2] : k.best;     /* 0: this block; k + 2: k + 1 to the left */
        const int inside = v.x != C63_MV_INTRA && c63_mv_inside(v, x, y, w, h);
        o.sad[i] = o.psad[i] = o.psum[i] = -1;
        if (i && (!(m.modes & C63_RD_MV) || !inside))
            continue;
        if (!inside && !intra)
            continue;
        c63_mvrd_sads(c, csum, ref + (ptrdiff_t)(y + v.y) * w + x + v.x, w, intra, &sad,
                      &o.psad[i], &o.psum[i]);
        if (inside)
            o.sad[i] = sad;
    }
    o.isum = csum;
    o.isad = intra ? c63_mean_sad_rows(c, 0, csum) : 0;

    /* the choice for each state of the left neighbour's */
    k.bx  = bx;
    k.x   = x;
    k.y   = y;
    k.w   = w;
    k.h   = h;
    k.qdc = MVRD_FIELD(pi, qdc);
    k.cur = cur - x;
    k.ref = ref;
#pragma unroll 1
    for (int s = 0; s < C63_MVRD_STATES; s++) {
        c63_mv l;
        l.x = l.y = 0;
        o.next[s] = 0;
        if (s >= 2) {
            if (bx < s - 1)
                continue;               /* no block s - 1 to the left */
            l = k.hist[s - 2];
        }
        const c63_mv r = c63_mvrd_decide(m, o, k, l, s != 0, none);
        o.next[s] = c63_mv_pack(r) | c63_mvrd_state(r, k) << 16;
    }
    ((C63MVRDPre *)m.pre)[b] = o;
}

/*
 * c63_mv_rd: a warp a block row. The lanes stage 32 blocks at a time in
 * shared memory (lane j block j: its choices by state and its best-SAD
 * vector, read while the 32 before are walked); then every lane walks the
 * 32 blocks in order, each block's choice that of the state left by the
 * block before (all lanes read the same word at once). Where that state is
 * C63_MVRD_FAR, a vector f from further left, it stays so while the blocks
 * choose f again: at the first such block each lane takes, in parallel,
 * the choice of its block of the 32 as if its left neighbour had chosen f
 * (f's SADs from the pictures), and the walk reads them while the state
 * stays. Lane j keeps block j's choice and stores it.
 */
extern "C" __global__ void __launch_bounds__(32 * C63_MVRD_WARPS)
c63_mv_rd(C63MVRDParams m)
{
    enum { NW = C63_MVRD_STATES, STRIDE = NW | 1, BK = C63_MVRD_BACK };
    __shared__ int stage[C63_MVRD_WARPS][32 * STRIDE];
    __shared__ int bests[C63_MVRD_WARPS][BK + 32];     /* 4 of the 32 before, then the 32 */
    const int lane = threadIdx.x & 31;
    const int row  = blockIdx.x * C63_MVRD_WARPS + (threadIdx.x >> 5);
    if (row >= m.nrows || (m.scene && ((const C63SceneState *)m.scene)->key))
        return;
    const int pi = MVRD_PLANE(row, first_row);
    const int w = MVRD_FIELD(pi, w), first = MVRD_FIELD(pi, first);
    const int by = row - MVRD_FIELD(pi, first_row), bw = w >> 3;
    c63_mv *mv = (c63_mv *)m.mv + first + (size_t)by * bw;
    const C63MVRDPre *pre = (const C63MVRDPre *)m.pre + first + (size_t)by * bw;
    int *st = stage[threadIdx.x >> 5], *sb = bests[threadIdx.x >> 5];
    C63MVRDBlock k;
    c63_mv far, none;
    int state = 0;                      /* none in column 0 */

    k.y   = 8 * by;
    k.w   = w;
    k.h   = MVRD_FIELD(pi, h);
    k.qdc = MVRD_FIELD(pi, qdc);
    k.cur = (const u8 *)m.orig + (size_t)64 * first + (size_t)k.y * w;
    k.ref = (const u8 *)m.ref  + (size_t)64 * first;
    none.x = C63_MV_INTRA;
    none.y = 0;
    far = none;
    if (lane < BK)
        sb[lane] = c63_mv_pack(none);

    int nx[NW + 1];                     /* lane's block of the next 32, read ahead */
    if (lane < bw) {
#pragma unroll
        for (int s = 0; s < NW; s++)
            nx[s] = pre[lane].next[s];
        nx[NW] = c63_mv_pack(mv[lane]);
    }
    for (int bx0 = 0; bx0 < bw; bx0 += 32) {
        const int n = min(32, bw - bx0);
        int choice = 0, spec = 0, spec_ok = 0;
        if (lane < n) {
#pragma unroll
            for (int s = 0; s < NW; s++)
                st[lane * STRIDE + s] = nx[s];
            sb[BK + lane] = nx[NW];
        }
        __syncwarp();
        if (bx0 + 32 + lane < bw) {
#pragma unroll
            for (int s = 0; s < NW; s++)
                nx[s] = pre[bx0 + 32 + lane].next[s];
            nx[NW] = c63_mv_pack(mv[bx0 + 32 + lane]);
        }
        for (int j = 0; j < n; j++) {
            int e;
            if (state != C63_MVRD_FAR) {
                e = st[j * STRIDE + state];
            } else {
                if (!spec_ok && lane >= j && lane < n) {
                    /* lane's block with far to its left */
                    C63MVRDBlock b = k;
                    int miss[3] = { 0, 0, 0 };
                    b.bx   = bx0 + lane;
                    b.x    = 8 * b.bx;
                    b.best = c63_mv_unpack(sb[BK + lane]);
#pragma unroll
                    for (int i = 0; i < BK; i++)
                        b.hist[i] = c63_mv_unpack(sb[BK + lane - 1 - i]);
                    if (c63_mv_inside(far, b.x, b.y, w, b.h)) {
                        u32 c[8][2];
                        const int csum = c63_mvrd_rows(b.cur + b.x, w, c);
                        c63_mvrd_sads(c, csum, b.ref + (ptrdiff_t)(b.y + far.y) * w + b.x + far.x,
                                      w, m.modes & C63_RD_INTRA, &miss[0], &miss[1], &miss[2]);
                    }
                    const c63_mv r = c63_mvrd_decide(m, pre[b.bx], b, far, 1, miss);
                    spec = c63_mv_pack(r) | c63_mvrd_state(r, b) << 16;
                }
                spec_ok = 1;
                e = __shfl_sync(0xffffffffu, spec, j);
            }
            state = e >> 16;
            if (state == C63_MVRD_FAR)
                far = c63_mv_unpack(e);
            else
                spec_ok = 0;
            if (lane == j)
                choice = e & 0xFFFF;
        }
        __syncwarp();           /* the stage is written again next */
        if (lane < n)
            mv[bx0 + lane] = c63_mv_unpack(choice);
        const int carry = lane < BK ? sb[32 + lane] : 0;
        __syncwarp();
        if (lane < BK)
            sb[lane] = carry;
    }
}

#undef MVRD_PLANE
#undef MVRD_FIELD
