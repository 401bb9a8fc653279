/*
 * Codec63 CUDA kernels: the c63 decoder's CUDA hwaccel
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
 * The kernels of the c63 decoder's CUDA hwaccel (libavcodec/c63/
 * c63dec_cuda.c): c63_hd_*, the parallel entropy decoding of c63_hdec.h
 * (its CPU twin: tests/harness/c63hd_serial.h), then c63_recon, the
 * encoder's reconstruction (c63_block.h).
 */

#include "c63_block.h"
#include "c63_hdec.h"

extern "C" __global__ void __launch_bounds__(C63_ENC_THREADS)
c63_recon(C63EncParams e)
{
    c63_encode_body<C63_ENC_RECON>(e);
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
    if ((u32)c0 > m)        /* (a chunk starting at the marker sets the size) */
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
            const size_t seg = (size_t)(s0 + u - 1);
            *ex = c63hd_run_seg(data, t, p.keyframe, *en, (int)seg, limit, sum,
                                (c63hd_state *)p.cp + seg * C63HD_REC,
                                (C63HDSum *)p.cps + seg * C63HD_REC,
                                (const c63hd_state *)p.guess + seg * C63HD_GUESSES * C63HD_REC,
                                (const C63HDSum *)p.gsums + seg * C63HD_GUESSES * C63HD_REC);
            ex_s[u] = *ex;
            changed = 1;
        }
        rounds++;
        if (!__syncthreads_or(changed) || rounds > C63HD_GROUP)
            return rounds;
    }
}

/* Synchronisation, the guesses: guess c of segment s a thread (thread
 * 6 s + c), each kept as the segment's record of that guess. */
extern "C" __global__ void __launch_bounds__(C63HD_GUESS_THREADS)
c63_hd_guess(C63HDParams p)
{
    __shared__ C63HDTables t;
    const int i = blockIdx.x * C63HD_GUESS_THREADS + threadIdx.x;
    const int s = i / C63HD_GUESSES, c = i % C63HD_GUESSES;
    C63HDSum sum = { 0, { 0, 0, 0 } };
    unsigned limit;

    if (!c63_hd_prepare(p, &t, &limit) || s >= p.nsegs)
        return;
    c63hd_run_seg((const u8 *)p.data, &t, p.keyframe, C63HD_GUESS(s, c), s, limit, &sum,
                  (c63hd_state *)p.guess + (size_t)i * C63HD_REC,
                  (C63HDSum *)p.gsums + (size_t)i * C63HD_REC, 0, 0);
}

/* Synchronisation, the links: link c of segment s a thread (thread
 * 6 s + c). */
extern "C" __global__ void __launch_bounds__(C63HD_GUESS_THREADS)
c63_hd_link(C63HDParams p)
{
    __shared__ C63HDTables t;
    const int i = blockIdx.x * C63HD_GUESS_THREADS + threadIdx.x;
    const int s = i / C63HD_GUESSES, c = i % C63HD_GUESSES;
    unsigned limit;

    if (!c63_hd_prepare(p, &t, &limit) || s >= p.nsegs)
        return;
    ((u8 *)p.link)[8 * (size_t)s + c] = (u8)c63hd_link(&p, (const u8 *)p.data, &t, limit, s, c);
}

/* Synchronisation, the chain: the links composed from the stream's start
 * (an inclusive scan of maps, a run of segments a thread), each
 * segment's guess into its link [6]. */
extern "C" __global__ void __launch_bounds__(C63HD_CHAIN_THREADS)
c63_hd_chain(C63HDParams p)
{
    __shared__ unsigned maps[C63HD_CHAIN_THREADS];
    u8 *link = (u8 *)p.link;
    const int u = threadIdx.x;
    const int per = (p.nsegs + C63HD_CHAIN_THREADS - 1) / C63HD_CHAIN_THREADS, first = u * per;
    unsigned m = 0;     /* (the identity for 6 guesses, 3 bits each) */
    int x;

    if (!c63_hd_ok(p))
        return;
    for (int c = 0; c < C63HD_GUESSES; c++)
        m |= (unsigned)c << 3 * c;
    for (int s = first; s < first + per && s < p.nsegs; s++)
        m = c63hd_compose(m, c63hd_map(link, s));
    maps[u] = m;
    for (int o = 1; o < C63HD_CHAIN_THREADS; o <<= 1) {
        unsigned v;
        __syncthreads();
        v = u >= o ? c63hd_compose(maps[u - o], maps[u]) : maps[u];
        __syncthreads();
        maps[u] = v;
    }
    __syncthreads();
    /* the runs before this one begin at the stream's start, so their map
     * is constant */
    x = u ? (int)(maps[u - 1] & 7) : 0;
    for (int s = first; s < first + per && s < p.nsegs; s++) {
        x = link[8 * (size_t)s + x];
        link[8 * (size_t)s + 6] = (u8)x;
    }
}

/* Synchronisation, the rounds: a group a block, unit u (segment
 * s0 + u - 1) thread u, unit 0 the overlap. */
extern "C" __global__ void __launch_bounds__(C63HD_GROUP)
c63_hd_sync(C63HDParams p)
{
    __shared__ C63HDTables t;
    __shared__ c63hd_state ex_s[C63HD_GROUP];
    int s0;
    const int n = c63hd_group(p.nsegs, blockIdx.x, &s0);
    const int u = threadIdx.x, s = s0 + u - 1;
    C63HDSum sum = { 0, { 0, 0, 0 } };
    c63hd_state en = 0, ex = 0;
    unsigned limit;

    if (!c63_hd_prepare(p, &t, &limit))
        return;
    if (u < n) {
        c63hd_unit_start(&p, s0, u, &en, &ex, &sum);
        ex_s[u] = ex;
    }
    c63_hd_rounds(p, &t, limit, s0, n, u, &en, &ex, &sum, ex_s);
    if (u >= 1 && u < n) {
        ((c63hd_state *)p.entry)[s] = en;
        ((c63hd_state *)p.exit)[s]  = ex;
        ((C63HDSum *)p.sums)[s]     = sum;
    }
}

/* Resolution, one block: passes over the groups until none is decoded
 * again (c63hd_resolve_pass() of the twin). A pass takes the groups
 * C63HD_LANES at a time, in order, a lane of C63HD_GROUP threads a group:
 * those whose overlap missed their predecessor's exit (as it was when the
 * batch began) are decoded again from it. Then the sums of the segments
 * before each. */
extern "C" __global__ void __launch_bounds__(C63HD_RESOLVE_THREADS)
c63_hd_resolve(C63HDParams p)
{
    __shared__ C63HDTables t;
    __shared__ c63hd_state ex_s[C63HD_LANES][C63HD_GROUP];
    __shared__ int scan[4][C63HD_RESOLVE_THREADS];
    __shared__ int again;
    C63HDStatus *st = (C63HDStatus *)p.status;
    c63hd_state *entry = (c63hd_state *)p.entry, *exit_ = (c63hd_state *)p.exit;
    C63HDSum *sums = (C63HDSum *)p.sums;
    const int u = threadIdx.x, lane = u / C63HD_GROUP, v = u % C63HD_GROUP;
    unsigned limit;
    int per, first;
    C63HDSum acc = { 0, { 0, 0, 0 } };

    if (!c63_hd_prepare(p, &t, &limit))
        return;
    /* (one group has nothing to decode again; with two or more, the
     * batches' barriers order again's writes before its reads) */
    if (p.ngroups > 1) do {
        __syncthreads();        /* every thread has read again */
        if (!u)
            again = 0;
        for (int g0 = 1; g0 < p.ngroups; g0 += C63HD_LANES) {
            const int g = g0 + lane;
            int s0 = 0, n = 0, redo = 0;
            c63hd_state en = 0, ex = 0;
            C63HDSum sum = { 0, { 0, 0, 0 } };
            if (g < p.ngroups) {
                n    = c63hd_group(p.nsegs, g, &s0);
                redo = entry[s0] != exit_[s0 - 1];
            }
            if (redo) {
                if (!v) {
                    en = ex = exit_[s0 - 1];
                } else if (v < n) {
                    en  = entry[s0 + v - 1];
                    ex  = exit_[s0 + v - 1];
                    sum = sums[s0 + v - 1];
                }
                ex_s[lane][v] = ex;
            }
            /* the batch's overlaps read before any of its groups writes;
             * the lanes of groups not decoded again wait at the same
             * barriers */
            __syncthreads();
            c63_hd_rounds(p, &t, limit, s0, redo ? n : 0, v, &en, &ex, &sum, ex_s[lane]);
            if (redo && v >= 1 && v < n) {
                entry[s0 + v - 1] = en;
                exit_[s0 + v - 1] = ex;
                sums[s0 + v - 1]  = sum;
            }
            if (redo && !v) {
                atomicAdd(&st->redone, 1);
                again = 1;
            }
            __syncthreads();    /* the batch's writes */
        }
    } while (again);

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

/* Writing: a part of a segment a thread, from the state its segment's
 * true decoding kept at the part's start. */
extern "C" __global__ void __launch_bounds__(C63HD_GROUP)
c63_hd_write(C63HDParams p)
{
    __shared__ C63HDTables t;
    C63HDStatus *st = (C63HDStatus *)p.status;
    const int i = blockIdx.x * C63HD_GROUP + threadIdx.x, s = i / C63HD_SUB, j = i % C63HD_SUB;
    const int r = s * C63HD_REC + j;
    C63HDSum sum = { 0, { 0, 0, 0 } }, base, before;
    C63HDOut o;
    unsigned limit;

    if (!c63_hd_prepare(p, &t, &limit))
        return;
    if (s >= p.nsegs)
        return;
    base    = ((const C63HDSum *)p.sums)[s];
    before  = ((const C63HDSum *)p.cps)[r];
    o.p     = p;
    o.error = &st->error;
    for (int c = 0; c < 3; c++)
        o.dc[c] = base.dc[c] + before.dc[c];
    c63hd_begin_block(&o, base.blocks + before.blocks - 1);
    c63hd_run((const u8 *)p.data, &t, p.keyframe, ((const c63hd_state *)p.cp)[r],
              (unsigned)s * C63HD_SEG_BITS + (unsigned)(j + 1) * C63HD_SUB_BITS, limit, &sum, &o);
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
