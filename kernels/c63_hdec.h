/*
 * Codec63 parallel entropy decoding, shared by the CUDA kernels and their
 * CPU twin
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

/**
 * @file
 * A c63 frame's entropy-coded data is one segment without restart
 * markers, its DC predicted across the whole frame per plane
 * (docs/c63-format.md 5.4-5.8). It is decoded in parallel in four stages,
 * each a loop over independent units that a CUDA kernel runs one a thread
 * and the CPU twin (tests/harness/c63hd_serial.h) one after the other:
 *
 * 1. Unstuffing (c63hd_stuffed(), c63hd_marker()): chunks of
 *    C63HD_CHUNK bytes count their stuffed zero bytes (a 0x00 after 0xFF)
 *    and find the first marker (0xFF followed by neither 0x00 nor an
 *    earlier end); each chunk then copies its kept bytes to where the
 *    counts before it put them, up to the marker. The data are followed
 *    by C63HD_PAD zero bytes, the zero bits decoders read past the end.
 *
 * 2. Synchronisation (c63hd_run_seg): the data are cut into segments of
 *    C63HD_SEG_BITS bits. A decoder state (c63hd_state: a bit position at
 *    a code boundary, the block's place in its macroblock and the next
 *    coefficient) determines everything after it. Each segment is first
 *    decoded from C63HD_GUESSES guessed states at its first bit, one for
 *    each place in the macroblock, to the first code boundary at or past
 *    its end (its exit), all segments' guesses at once. Huffman codes
 *    synchronise by themselves: a decoding from a wrong state soon falls
 *    onto the true code boundaries, and one of the guesses is in the true
 *    place, so a later decoding mostly meets a guess within a part of the
 *    segment and takes the rest from it. Then each segment is decoded
 *    from each of its predecessor's guesses' exits, each decoding kept
 *    (c63hd_link): mostly it ends as one of the segment's own guesses,
 *    which gives a map from the predecessor's guesses to the segment's,
 *    the links. Composed from the stream's start (c63_hd_chain: a scan),
 *    they name each segment's guess on the way of the true decoding,
 *    unless a link missed; each segment starts as its decoding from its
 *    predecessor's (c63hd_unit_start). Then, in rounds, each segment is
 *    decoded again from its predecessor's exit wherever that differs from
 *    the state it started from, until no exit changes (where a link
 *    missed). Groups of C63HD_GROUP segments do the rounds on their own,
 *    each group's first unit (its overlap) the segment before its first,
 *    as it started. The resolution (c63_hd_resolve) then decodes again
 *    any group whose overlap did not land on its predecessor's exit,
 *    C63HD_LANES groups at once, in passes over the groups until none is
 *    decoded again (at worst the decoding becomes serial, never wrong),
 *    and scans the segments' block counts and DC sums.
 *
 *    Every decoding keeps a record (c63hd_run_seg): the state at the
 *    start of each of the segment's C63HD_SUB parts and the sums before
 *    it. The segment's last, from its true entry, stays.
 *
 * 3. Writing (c63hd_run with write): each part of a segment is decoded
 *    once more from the state its segment's true decoding kept, writing
 *    each block's coefficients (in zigzag order, the DC predicted), its
 *    vector syntax and the bit position where it starts, and the first
 *    error of each kind as a key. A block cut by a part's start is
 *    finished by the part (its coefficients after the cut).
 *
 * 4. Vectors (c63hd_fixup_row): each block row resolves the reuse bits
 *    into vectors and checks them; each macroblock row checks that it
 *    ends within the data (quirk Q2's 7 bits).
 *
 * Errors are keys, C63HD_KEY(block, the check that failed (enum
 * C63HDCheck), what its message needs), ordered as the serial decoder
 * (libavcodec/c63/c63dec.c) makes its checks: the smallest key is the
 * error it reports. Past the first error
 * of a frame the decoding only needs to stop; every decoding here ends.
 */

#ifndef KERNELS_C63_HDEC_H
#define KERNELS_C63_HDEC_H

#include "kernel_func.h"

#define C63HD_SEG_BITS 1024         ///< bits of a segment
#define C63HD_SUB      8            ///< parts of a segment that the writing decodes apart
#define C63HD_SUB_BITS (C63HD_SEG_BITS / C63HD_SUB)
#define C63HD_REC      (C63HD_SUB + 1)  ///< a decoding's record: its parts' starts, its exit
#define C63HD_GUESSES  6            ///< guesses a segment, one a place in the macroblock
#define C63HD_GROUP    128          ///< segments of a group (threads of a block)
#define C63HD_GUESS_THREADS 64      ///< threads of a block of guesses
#define C63HD_RESOLVE_THREADS 1024  ///< threads of the resolution's block
#define C63HD_CHAIN_THREADS 1024    ///< threads of the chain's block (c63_hd_chain)
#define C63HD_LANES (C63HD_RESOLVE_THREADS / C63HD_GROUP) ///< groups the resolution decodes at once
#define C63HD_CHUNK    4096         ///< bytes of an unstuffing chunk
#define C63HD_CHUNK_THREADS 256     ///< threads of an unstuffing block
/** Zero bytes after the data, beyond what any decoding reads: a block
 *  starting at the last position that counts (8 bits past the data)
 *  takes at most 1694 bits, and a segment read from a guess a segment
 *  more, in 64-bit windows of 12-byte loads. */
#define C63HD_PAD      1024
/** Bits past the data's end that segments cover: a block starting there
 *  and its longest coding. */
#define C63HD_TAIL_BITS (8 + 1694 + 64)
#define C63HD_FAST     9            ///< bits of the first-level code tables

#define C63HD_NOMARKER 0xFFFFFFFFu

typedef unsigned long long c63hd_u64;

/** The checks of a block, in the serial decoder's order. */
enum C63HDCheck {
    C63HD_MV_KEY    = 0,    ///< a vector in a keyframe
    C63HD_MV_REUSE  = 1,    ///< reuse without a left neighbour's vector
    C63HD_MV_CODE   = 2,    ///< an invalid vector code
    C63HD_MV_RANGE  = 3,    ///< a vector pointing outside the plane
    C63HD_DC_CODE   = 4,    ///< an invalid DC code
    C63HD_DC_RANGE  = 5,    ///< the DC outside int16
    C63HD_AC_CODE   = 6,    ///< an invalid AC code, or a run past the end
    C63HD_ROW_END   = 7,    ///< (last block of a macroblock row) the row
                            ///  ends past the data
};
/** An error's key: the block (coding order), the check, 16 bits of detail
 *  (C63HD_MV_RANGE: the vector's x and y bytes; C63HD_AC_CODE: 1 for a
 *  run past the end) that do not change the order. */
#define C63HD_KEY(b, check, detail) \
    (((c63hd_u64)(b) * 8 + (check)) << 16 | (c63hd_u64)(detail))
#define C63HD_KEY_BLOCK(key)  ((long long)((key) >> 19))
#define C63HD_KEY_CHECK(key)  ((int)((key) >> 16) & 7)
#define C63HD_KEY_DETAIL(key) ((unsigned)(key) & 0xFFFF)
#define C63HD_NO_ERROR (~0ull)

/**
 * The four code tables, [0] DC luminance, [1] DC chrominance, [2] AC
 * luminance, [3] AC chrominance: codes up to C63HD_FAST bits by a lookup
 * (length << 8 | symbol; 0 for none), longer ones by their canonical
 * order (the codes of length l are first[l] .. first[l] + count[l] - 1,
 * the symbols from sym[index[l]] on).
 */
typedef struct C63HDTables {
    unsigned short fast[4][1 << C63HD_FAST];
    unsigned short first[4][17];
    unsigned short count[4][17];
    unsigned short index[4][17];
    unsigned char  sym[4][164];
} C63HDTables;

/** A decoder state: bit position (bits 0-31), the block's place in its
 *  macroblock (0-5, bits 32-39) and the next coefficient (bits 40-47; 0:
 *  the block's start, its vector syntax and DC next). */
typedef c63hd_u64 c63hd_state;
#define C63HD_STATE(pos, comp, k) ((c63hd_u64)(pos) | (c63hd_u64)(comp) << 32 | (c63hd_u64)(k) << 40)
#define C63HD_POS(s)  ((unsigned)(s))
/** Where every decoding ends that reaches the start of a block past the
 *  limit (c63hd_run): one state for all of them, so that the segments
 *  past the data's end decode nothing, whatever they start from, and
 *  change nothing from one round to the next. */
#define C63HD_END     C63HD_STATE(0xFFFFFFFFu, 0, 0)
#define C63HD_COMP(s) ((int)((s) >> 32) & 0xFF)
#define C63HD_K(s)    ((int)((s) >> 40) & 0xFF)

/** What a segment's decoding adds up: blocks started in it and the sum of
 *  their DC differences per plane. */
typedef struct C63HDSum {
    int blocks;
    int dc[3];
} C63HDSum;

/** A block's vector syntax (coding order): use_mv (bit 0), reuse (bit 1),
 *  the coded vector (bits 8-15 x, 16-23 y). */
#define C63HD_INFO(use, reuse, x, y) \
    ((unsigned)(use) | (unsigned)(reuse) << 1 | ((unsigned)(x) & 0xFF) << 8 | ((unsigned)(y) & 0xFF) << 16)

/** One frame's decoding: sizes and the addresses of its buffers (device
 *  or host; plain types so that both sides lay it out alike). */
typedef struct C63HDParams {
    unsigned long long pkt;     ///< unsigned char: the stuffed data, then 0 bytes
    unsigned long long data;    ///< unsigned char: the unstuffed data, C63HD_PAD zeros after
    unsigned long long chunks;  ///< unsigned: stuffed bytes per chunk
    unsigned long long status;  ///< C63HDStatus
    unsigned long long tables;  ///< C63HDTables
    unsigned long long entry;   ///< c63hd_state per segment (true, after resolve)
    unsigned long long exit;    ///< c63hd_state per segment
    unsigned long long sums;    ///< C63HDSum per segment; after resolve the
                                ///  sums of the segments before it
    unsigned long long cp;      ///< c63hd_state, C63HD_REC per segment: the
                                ///  record of its decoding (c63hd_run_seg)
    unsigned long long cps;     ///< C63HDSum, C63HD_REC per segment: its sums
    unsigned long long guess;   ///< c63hd_state, C63HD_GUESSES records per
                                ///  segment: those of its guesses
    unsigned long long gsums;   ///< C63HDSum, the same for the sums
    unsigned long long link;    ///< unsigned char, 8 per segment: [c] the guess
                                ///  the decoding from its predecessor's
                                ///  guess c's exit ends as (c63hd_link),
                                ///  [6] the guess on the true decoding's
                                ///  way (c63_hd_chain)
    unsigned long long lcp;     ///< c63hd_state, C63HD_GUESSES records per
                                ///  segment: those of the decodings from
                                ///  its predecessor's guesses' exits
    unsigned long long lcps;    ///< C63HDSum, the same for the sums
    unsigned long long start;   ///< unsigned per block + 1: its first bit (coding order)
    unsigned long long info;    ///< unsigned per block: C63HD_INFO (coding order)
    unsigned long long coef;    ///< short: 64 per block, zigzag, planes in raster order
    unsigned long long mv;      ///< C63ECMV per block, planes in raster order
    int pkt_size;               ///< stuffed bytes
    int nchunks;
    int nsegs;                  ///< segments (for the largest data of pkt_size)
    int ngroups;
    int keyframe;
    int mb_w, mb_h;
    int nblocks;                ///< 6 mb_w mb_h
    int bw[3], bh[3];           ///< blocks per row and column of each plane
    int first[3];               ///< each plane's first block in coef and mv
} C63HDParams;

/** What the decoding returns to the host. */
typedef struct C63HDStatus {
    unsigned marker;            ///< stuffed position of the first marker
    unsigned size;              ///< unstuffed bytes before it
    unsigned long long error;   ///< the smallest error key, C63HD_NO_ERROR if none
    int redone;                 ///< groups the resolution decoded again
    int pad;
} C63HDStatus;

/** Segments for pkt_size stuffed bytes. */
static inline int c63hd_nsegs(long long pkt_size)
{
    return (int)((8 * pkt_size + C63HD_TAIL_BITS + C63HD_SEG_BITS - 1) / C63HD_SEG_BITS);
}

/** The units of group g: its overlap and its segments (at most
 *  C63HD_GROUP), the first of which is *s0. */
KERNEL_FORCEINLINE int c63hd_group(int nsegs, int g, int *s0)
{
    const int n = nsegs - g * (C63HD_GROUP - 1) + 1;
    *s0 = g * (C63HD_GROUP - 1);
    return n < C63HD_GROUP ? n : C63HD_GROUP;
}

/** Groups of C63HD_GROUP segments, each with an overlap segment. */
static inline int c63hd_ngroups(int nsegs)
{
    return (nsegs + C63HD_GROUP - 2) / (C63HD_GROUP - 1);
}

#if KERNEL_GPU
#define C63HD_ATOMIC_MIN64(p, v) atomicMin((unsigned long long *)(p), (unsigned long long)(v))
#else
#define C63HD_ATOMIC_MIN64(p, v) do { if ((v) < *(p)) *(p) = (v); } while (0)
#endif

/** The 64 bits of data from bit pos on (MSB first). data is 4-aligned and
 *  readable for 12 bytes past pos / 8. */
KERNEL_FORCEINLINE c63hd_u64 c63hd_peek(const unsigned char *data, unsigned pos)
{
#if KERNEL_GPU
    const unsigned *w = (const unsigned *)data + (pos >> 5);
    const unsigned a = __byte_perm(w[0], 0, 0x0123), b = __byte_perm(w[1], 0, 0x0123);
    const unsigned c = __byte_perm(w[2], 0, 0x0123), sh = pos & 31;
    return (c63hd_u64)__funnelshift_l(b, a, sh) << 32 | __funnelshift_l(c, b, sh);
#else
    const unsigned char *p = data + (pos >> 3);
    const int sh = pos & 7;
    c63hd_u64 v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return sh ? v << sh | p[8] >> (8 - sh) : v;
#endif
}

/** The symbol of table tab whose code starts window w, its length in
 *  *len; -1 for no code. */
KERNEL_FORCEINLINE int c63hd_sym(const C63HDTables *t, int tab, c63hd_u64 w, int *len)
{
    const unsigned e = t->fast[tab][w >> (64 - C63HD_FAST)];
    const unsigned top = (unsigned)(w >> 48);
    int l = C63HD_FAST + 1;

    if (e) {
        *len = e >> 8;
        return e & 0xFF;
    }
    /* The codes are canonical: those of length l, left-aligned to 16
     * bits, end at (first[l] + count[l]) << (16 - l), an end that grows
     * with l; the code's length is the first whose end lies past top.
     * The ends are compared all at once rather than one after the other,
     * so that one thread's long code holds its warp up for one round of
     * loads. */
    for (int i = C63HD_FAST + 1; i < 16; i++)
        l += top >= ((unsigned)t->first[tab][i] + t->count[tab][i]) << (16 - i);
    if (top >= ((unsigned)t->first[tab][16] + t->count[tab][16]))
        return -1;
    *len = l;
    return t->sym[tab][t->index[tab][l] + (top >> (16 - l)) - t->first[tab][l]];
}

/** The JPEG value of size bits v (size > 0). */
KERNEL_FORCEINLINE int c63hd_extend(unsigned v, int size)
{
    return v >> (size - 1) ? (int)v : (int)v - (1 << size) + 1;
}

/** A DC-table value (size at most max) at the top of w: the bits it takes,
 *  0 for an invalid code. */
KERNEL_FORCEINLINE int c63hd_value(const C63HDTables *t, int tab, c63hd_u64 w, int max, int *v)
{
    int len;
    const int size = c63hd_sym(t, tab, w, &len);
    if (size < 0 || size > max)
        return 0;
    *v = size ? c63hd_extend((unsigned)((w << len) >> (64 - size)), size) : 0;
    return len + size;
}

/** a[plane] += v, the index by selection so that a stays in registers */
KERNEL_FORCEINLINE void c63hd_add3(int *a, int plane, int v)
{
    a[0] += !plane ? v : 0;
    a[1] += plane == 1 ? v : 0;
    a[2] += plane == 2 ? v : 0;
}

/** Where one segment's writing puts things (write mode of c63hd_run). */
typedef struct C63HDOut {
    C63HDParams p;              ///< (a copy: its fields stay in registers)
    int block;                  ///< coding index of the block being decoded
    int dc[3];                  ///< the DC predictors
    c63hd_u64 *error;           ///< the smallest key
    short *coef;                ///< the current block's coefficients, or NULL
} C63HDOut;

/** A block's place in coef and mv from its coding index. */
KERNEL_FORCEINLINE int c63hd_raster(const C63HDParams *p, int b, int *plane)
{
    const int mb = b / 6, c = b - 6 * mb, v = mb / p->mb_w, u = mb - v * p->mb_w;
    if (c < 4) {
        *plane = 0;
        return p->first[0] + (2 * v + (c >> 1)) * p->bw[0] + 2 * u + (c & 1);
    }
    /* (the chroma plane's fields by selection, not by index: the
     * parameters stay in registers) */
    *plane = c - 3;
    return (c == 4 ? p->first[1] + v * p->bw[1] : p->first[2] + v * p->bw[2]) + u;
}

KERNEL_FORCEINLINE void c63hd_begin_block(C63HDOut *o, int b)
{
    o->block = b;
    o->coef  = 0;
    if (b >= 0 && b < o->p.nblocks) {
        int plane;
        o->coef = (short *)o->p.coef + (size_t)64 * c63hd_raster(&o->p, b, &plane);
    }
}

KERNEL_FORCEINLINE void c63hd_fail(C63HDOut *o, int check, int detail)
{
    if (o->coef) {
        const c63hd_u64 key = C63HD_KEY(o->block, check, detail);
        C63HD_ATOMIC_MIN64(o->error, key);
    }
}

/**
 * Decode from state s up to the first code boundary at or past end and
 * return the state there; or, at the start of a block past limit
 * (nothing there counts: its row ends past the data), stop and return
 * C63HD_END. sum receives the blocks started
 * and their DC differences. With out (write mode), write what is decoded;
 * out->block is the block s is in (its coding index, counted from the
 * first whose start the decoding met less one if s is mid-block).
 *
 * A check that fails ends the block (its key is written in write mode);
 * the decoding goes on from the next bit as from a block's start, so that
 * every decoding from a state is one and the same.
 */
KERNEL_FORCEINLINE c63hd_state c63hd_run(const unsigned char *data, const C63HDTables *t,
                                         int keyframe, c63hd_state s, unsigned end,
                                         unsigned limit, C63HDSum *sum, C63HDOut *out)
{
    unsigned pos = C63HD_POS(s);
    int comp = C63HD_COMP(s), k = C63HD_K(s);

    while (pos < end) {
        const int chroma = comp >= 4, plane = chroma ? comp - 3 : 0;
        c63hd_u64 w;
        int used;

        if (!k) {
            /* the block's start: use_mv, reuse or the vector, the DC */
            int use_mv, reuse = 0, mvx = 0, mvy = 0, diff = 0, n;
            if (pos > limit)
                return C63HD_END;
            w = c63hd_peek(data, pos);
            use_mv = (int)(w >> 63);
            used = 1;
            if (out) {
                c63hd_begin_block(out, out->block + 1);
                if ((unsigned)out->block <= (unsigned)out->p.nblocks)
                    ((unsigned *)out->p.start)[out->block] = pos;
            }
            sum->blocks++;
            if (use_mv) {
                reuse = (int)(w >> 62) & 1;
                used  = 2;
                if (!reuse) {
                    n = c63hd_value(t, 0, w << used, 7, &mvx);
                    if (n) {
                        used += n;
                        n = c63hd_value(t, 0, w << used, 7, &mvy);
                        used += n;
                    }
                    if (!n) {
                        /* the syntax read so far, for the checks before
                         * this one (a vector in a keyframe) */
                        if (out && out->coef)
                            ((unsigned *)out->p.info)[out->block] = C63HD_INFO(1, 0, 0, 0);
                        if (out)
                            c63hd_fail(out, C63HD_MV_CODE, 0);
                        pos += used + 1;
                        comp = comp == 5 ? 0 : comp + 1;
                        continue;
                    }
                }
            }
            if (out && out->coef)
                ((unsigned *)out->p.info)[out->block] = C63HD_INFO(use_mv, reuse, mvx, mvy);
            n = c63hd_value(t, chroma, w << used, 11, &diff);
            if (!n) {
                if (out)
                    c63hd_fail(out, C63HD_DC_CODE, 0);
                pos += used + 1;
                comp = comp == 5 ? 0 : comp + 1;
                continue;
            }
            used += n;
            c63hd_add3(sum->dc, plane, diff);
            if (out) {
                int dc;
                c63hd_add3(out->dc, plane, diff);
                dc = !plane ? out->dc[0] : plane == 1 ? out->dc[1] : out->dc[2];
                if (dc < -32768 || dc > 32767)
                    c63hd_fail(out, C63HD_DC_RANGE, 0);
                if (out->coef)
                    out->coef[0] = (short)dc;
            }
            pos += used;
            k = 1;
            continue;
        }

        /* AC codes, as many as a window holds */
        w = c63hd_peek(data, pos);
        used = 0;
        while (k && used <= 64 - 26 && pos + used < end) {
            int len;
            const int sym = c63hd_sym(t, 2 + chroma, w << used, &len);
            const int run = sym >> 4, size = sym & 15;
            if (sym < 0) {
                if (out)
                    c63hd_fail(out, C63HD_AC_CODE, 0);
                used++;
                k = 0;
                break;
            }
            used += len;
            if (!size) {
                if (!run) {             /* EOB */
                    k = 0;
                    break;
                }
                if (k + 16 > 63) {      /* ZRL past the end */
                    if (out)
                        c63hd_fail(out, C63HD_AC_CODE, 1);
                    k = 0;
                    break;
                }
                k += 16;
                continue;
            }
            k += run;
            if (k > 63) {
                if (out)
                    c63hd_fail(out, C63HD_AC_CODE, 1);
                k = 0;
                break;
            }
            if (out && out->coef)
                out->coef[k] = (short)c63hd_extend((unsigned)((w << used) >> (64 - size)), size);
            used += size;
            if (++k == 64)
                k = 0;
        }
        pos += used;
        if (!k)
            comp = comp == 5 ? 0 : comp + 1;
    }
    return C63HD_STATE(pos, comp, k);
}

/** The guess of place c (0-5) at segment seg's first bit: an AC code of
 *  the block in place c (most of the codes are AC codes). */
#define C63HD_GUESS(seg, c) C63HD_STATE((unsigned)(seg) * C63HD_SEG_BITS, c, 1)

/**
 * Decode segment seg from state s (its entry, a guess or the true one) to
 * its exit, as one c63hd_run() would; sum (zero at the entry) receives
 * the segment's sums. With cp and cps (a record: C63HD_REC entries of
 * each) also keep the state at each part's start (the first code boundary
 * at or past it; part 0: the entry) and the sums before it, and the exit
 * and the sums last; the writing decodes the parts apart from these.
 *
 * With g and gs (the records of the segment's C63HD_GUESSES guesses),
 * stop where the decoding meets one of them at a part's start: from the
 * same state the decoding is the same, so the rest of the record is the
 * guess's (its sums less those the guess had there). A decoding from a
 * wrong state falls onto the true code boundaries within a few codes,
 * and onto the true place in the macroblock only by chance; one of the
 * six guesses is in that place, so a decoding from the true entry mostly
 * meets one at the first part's start (94% of 1080p camera segments, 85%
 * of noisy ones).
 */
KERNEL_FORCEINLINE c63hd_state c63hd_run_seg(const unsigned char *data, const C63HDTables *t,
                                             int keyframe, c63hd_state s, int seg,
                                             unsigned limit, C63HDSum *sum,
                                             c63hd_state *cp, C63HDSum *cps,
                                             const c63hd_state *g, const C63HDSum *gs)
{
    const unsigned pos0 = (unsigned)seg * C63HD_SEG_BITS;
    if (!cp)
        return c63hd_run(data, t, keyframe, s, pos0 + C63HD_SEG_BITS, limit, sum, 0);
    for (int j = 0; j < C63HD_SUB; j++) {
        if (g && j) {
            for (int c = 0; c < C63HD_GUESSES; c++) {
                const c63hd_state *gc = g + c * C63HD_REC;
                const C63HDSum *sc = gs + c * C63HD_REC;
                if (gc[j] != s)
                    continue;
                for (int i = j; i < C63HD_REC; i++) {
                    cp[i]         = gc[i];
                    cps[i].blocks = sum->blocks + sc[i].blocks - sc[j].blocks;
                    cps[i].dc[0]  = sum->dc[0] + sc[i].dc[0] - sc[j].dc[0];
                    cps[i].dc[1]  = sum->dc[1] + sc[i].dc[1] - sc[j].dc[1];
                    cps[i].dc[2]  = sum->dc[2] + sc[i].dc[2] - sc[j].dc[2];
                }
                *sum = cps[C63HD_SUB];
                return cp[C63HD_SUB];
            }
        }
        cp[j]  = s;
        cps[j] = *sum;
        s = c63hd_run(data, t, keyframe, s, pos0 + (unsigned)(j + 1) * C63HD_SUB_BITS, limit,
                      sum, 0);
    }
    cp[C63HD_SUB]  = s;
    cps[C63HD_SUB] = *sum;
    return s;
}

/** Of a segment's guesses' exits, the one most of them reached (the
 *  first of those on a tie): the likeliest true exit. */
KERNEL_FORCEINLINE int c63hd_choose(const c63hd_state *ex)
{
    int best = 0, most = 0;
    for (int c = 0; c < C63HD_GUESSES; c++) {
        int n = 0;
        for (int d = 0; d < C63HD_GUESSES; d++)
            n += ex[d] == ex[c];
        if (n > most) {
            most = n;
            best = c;
        }
    }
    return best;
}

/**
 * Link c of segment s: decode it from the exit of its predecessor's guess
 * c (s > 0) or from the stream's start (s = 0, every c), keeping the
 * decoding's record (c63hd_run_seg(), which mostly meets one of the
 * segment's guesses); return the guess whose exit it reaches, else the
 * one whose exit most guesses reached (c63hd_choose()).
 */
KERNEL_FORCEINLINE int c63hd_link(const C63HDParams *p, const unsigned char *data,
                                  const C63HDTables *t, unsigned limit, int s, int c)
{
    const c63hd_state *guess = (const c63hd_state *)p->guess;
    const size_t g = (size_t)s * C63HD_GUESSES * C63HD_REC, r = g + (size_t)c * C63HD_REC;
    const c63hd_state e = !s ? C63HD_STATE(0, 0, 0) : guess[r - C63HD_GUESSES * C63HD_REC + C63HD_SUB];
    c63hd_state ex, ex6[C63HD_GUESSES];
    C63HDSum sum = { 0, { 0, 0, 0 } };

    ex = c63hd_run_seg(data, t, p->keyframe, e, s, limit, &sum, (c63hd_state *)p->lcp + r,
                       (C63HDSum *)p->lcps + r, guess + g, (const C63HDSum *)p->gsums + g);
    for (int d = 0; d < C63HD_GUESSES; d++) {
        ex6[d] = guess[g + d * C63HD_REC + C63HD_SUB];
        if (ex6[d] == ex)
            return d;
    }
    return c63hd_choose(ex6);
}

/** The links of segment s (s > 0: from its predecessor's guess c; s = 0:
 *  from the stream's start, the same for every c) as a map of the
 *  guesses, 3 bits each. */
KERNEL_FORCEINLINE unsigned c63hd_map(const unsigned char *link, int s)
{
    unsigned m = 0;
    for (int c = 0; c < C63HD_GUESSES; c++)
        m |= (unsigned)link[8 * (size_t)s + c] << 3 * c;
    return m;
}

/** The map that applies a, then b. */
KERNEL_FORCEINLINE unsigned c63hd_compose(unsigned a, unsigned b)
{
    unsigned m = 0;
    for (int c = 0; c < C63HD_GUESSES; c++)
        m |= (b >> 3 * ((a >> 3 * c) & 7) & 7) << 3 * c;
    return m;
}

/**
 * Unit u of the group whose first segment is s0 (segment s0 + u - 1)
 * starts as its link from its predecessor's guess on the true decoding's
 * way (c63_hd_chain): the entry, the exit, and for u > 0 the record and
 * sums. Unit 0 (the overlap) leaves the record to the group before, whose
 * last unit it is; that of the first group is the stream's start.
 */
KERNEL_FORCEINLINE void c63hd_unit_start(const C63HDParams *p, int s0, int u, c63hd_state *en,
                                         c63hd_state *ex, C63HDSum *sum)
{
    const int s = s0 + u - 1;
    const int c = s > 0 ? ((const unsigned char *)p->link)[8 * (size_t)(s - 1) + 6] : 0;
    const size_t r = ((size_t)s * C63HD_GUESSES + c) * C63HD_REC, o = (size_t)s * C63HD_REC;
    const c63hd_state *lcp = (const c63hd_state *)p->lcp;
    const C63HDSum *lcps = (const C63HDSum *)p->lcps;

    if (s < 0) {
        *en = *ex = C63HD_STATE(0, 0, 0);
        return;
    }
    *en = lcp[r];
    *ex = lcp[r + C63HD_SUB];
    if (!u)
        return;
    for (int j = 0; j < C63HD_REC; j++) {
        ((c63hd_state *)p->cp)[o + j] = lcp[r + j];
        ((C63HDSum *)p->cps)[o + j]   = lcps[r + j];
    }
    *sum = lcps[r + C63HD_SUB];
}

/** The limit of c63hd_run: blocks may start up to 8 bits past the data
 *  (the serial decoder's position is clamped there). */
KERNEL_FORCEINLINE unsigned c63hd_limit(unsigned size)
{
    return 8 * size + 8;
}

/**
 * Block row r of the rows of the three planes (luma rows, then U, then
 * V), block x: its coding index.
 */
KERNEL_FORCEINLINE int c63hd_coding_index(const C63HDParams *p, int plane, int bx, int by)
{
    if (!plane)
        return 6 * ((by >> 1) * p->mb_w + (bx >> 1)) + 2 * (by & 1) + (bx & 1);
    return 6 * (by * p->mb_w + bx) + 3 + plane;
}


/* ---------------------------------------------------------- unstuffing */

/** Byte i of the stuffed data (size bytes, a zero byte after) is a
 *  stuffed zero. */
KERNEL_FORCEINLINE int c63hd_stuffed(const unsigned char *d, int i)
{
    return i > 0 && !d[i] && d[i - 1] == 0xFF;
}

/** Byte i starts a marker: 0xFF, and after it neither a stuffed zero nor
 *  the end (0xFF as the last byte is no EOI). */
KERNEL_FORCEINLINE int c63hd_marker(const unsigned char *d, int i)
{
    return d[i] == 0xFF && d[i + 1];
}

/* ------------------------------------------------------------- vectors */

/**
 * The checks of the vector of block (bx, by) of plane p once the reuse
 * bits are resolved: info is its C63HD_INFO, left its left neighbour's (0
 * at bx 0), src that of the nearest block at or left of it coded with a
 * vector of its own (use_mv and no reuse; 0 if none). Writes its C63ECMV
 * (x C63_MV_INTRA for none) to mv and returns its error key, if any.
 */
KERNEL_FORCEINLINE c63hd_u64 c63hd_vector(const C63HDParams *p, int plane, int bx, int by,
                                          unsigned info, unsigned left, unsigned src,
                                          signed char *mv)
{
    const c63hd_u64 b = c63hd_coding_index(p, plane, bx, by);
    const int x = (signed char)(src >> 8), y = (signed char)(src >> 16);
    mv[0] = -128;
    mv[1] = 0;
    if (!(info & 1))
        return C63HD_NO_ERROR;
    if (p->keyframe)
        return C63HD_KEY(b, C63HD_MV_KEY, 0);
    if ((info & 2) && (!bx || !(left & 1)))
        return C63HD_KEY(b, C63HD_MV_REUSE, 0);
    if (8 * bx + x < 0 || 8 * by + y < 0 ||
        8 * bx + x > 8 * (p->bw[plane] - 1) || 8 * by + y > 8 * (p->bh[plane] - 1))
        return C63HD_KEY(b, C63HD_MV_RANGE, (x & 0xFF) << 8 | (y & 0xFF));
    mv[0] = (signed char)x;
    mv[1] = (signed char)y;
    return C63HD_NO_ERROR;
}

/** The check of macroblock row v's end (Q2: at most 7 bits past the
 *  data): its key, if it fails. start is the blocks' first bits
 *  (0xFFFFFFFF where no decoding reached). */
KERNEL_FORCEINLINE c63hd_u64 c63hd_row_end(const C63HDParams *p, const unsigned *start,
                                           unsigned size, int v)
{
    const int next = 6 * p->mb_w * (v + 1);
    if (start[next] > 8 * size + 7)
        return C63HD_KEY(next - 1, C63HD_ROW_END, 0);
    return C63HD_NO_ERROR;
}

#endif /* KERNELS_C63_HDEC_H */
