/*
 * Codec63 entropy coding on the GPU: the per-block and per-stage logic
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
 * Entropy coding of a Codec63 frame (docs/c63-format.md section 5) in stages
 * that run as CUDA kernels (c63_cuda_enc.cu, c63_ec_*), shared by the kernels
 * (device, CUDA C++), the c63_cuda encoder (host: the layout and sizes of
 * the buffers) and the tests (host), whose serial coder runs the
 * same stages serially, every grid emulated by loops (c63ec_code_frame_cpu()
 * in tests/harness/c63ec_serial.h).
 *
 * Coded blocks are numbered in coding order: i = 6 * mcu + k, k = 0..3
 * the four Y blocks of the MCU, 4 U, 5 V. The stages:
 *
 *  1 code     per coded block (one thread): its symbols (use_mv, reuse,
 *             vector, DC difference from the previous block of its plane
 *             in coding order, AC run/size with ZRL and EOB) written MSB
 *             first into its own slot of C63EC_SLOT_WORDS words, and its
 *             bit count into len[i]; on the GPU the thread block first
 *             stages its blocks' coefficients in shared memory
 *  2 scan     exclusive prefix sum of len into off[] (u64), in two
 *             launches: 2a per chunk of C63EC_CHUNK blocks its sum; 2b
 *             each chunk adds up the sums of the chunks before it (few:
 *             48 at 1080p) and scans itself from there, and the last
 *             chunk's end is the frame's bit count
 *  3 gather   per 32-bit output word (one thread): the blocks covering its
 *             bits are found by binary search in off[] and their bits
 *             copied; per chunk of C63EC_THREADS words, its count of 0xFF
 *             bytes among the frame's whole bytes
 *  4 stuff    per word (one thread): its whole bytes written to the packet
 *             at their place after the header and the 0x00 bytes of the
 *             0xFF bytes before them (the counts of the chunks before its
 *             own, added up by each chunk, then the chunk's own scan),
 *             each 0xFF followed by 0x00; the first thread block writes
 *             the 655-byte header (a template, with the keyframe byte
 *             set), the one of the last chunk the end-of-data byte of
 *             quirk Q2, EOI, the number of 0xFF bytes and the size
 *
 * Every output word and byte is written by exactly one thread: nothing
 * needs clearing between frames and no atomics are used.
 *
 * Plain C types only, so that both sides lay the structures out
 * identically (pointers travel as unsigned long long, as CUdeviceptr).
 */

#ifndef KERNELS_C63_EC_H
#define KERNELS_C63_EC_H

#include "kernel_func.h"

#define C63EC_HEADER_SIZE 655   ///< C63_HEADER_SIZE
#define C63EC_KEY_OFFSET  220   ///< keyframe byte of SOF0 in the header

/* Worst case of one block in bits: use_mv, reuse, two vectors of size 7
 * (5-bit code, 7 bits), a DC difference of size 11 (code of at most 11
 * bits, 11 bits) and 63 AC coefficients of size 10 (code of at most 16
 * bits, 10 bits). Quantised residuals of 8-bit samples stay below 1024 in
 * AC and 2048 in DC differences for every quality 1..50 (q >= 2), and ZRL
 * (at most 11 bits for 16 zeros) and EOB cost less than the coefficients
 * they replace. 2 + 24 + 22 + 1638. */
#define C63EC_BLOCK_MAX_BITS 1686
/** Words of a block's slot: the bits, plus one so that two-word reads
 * stay inside. */
#define C63EC_SLOT_WORDS ((C63EC_BLOCK_MAX_BITS + 31) / 32 + 1)

#define C63EC_THREADS 256                   ///< threads of every stage's blocks
#define C63EC_CHUNK   (4 * C63EC_THREADS)   ///< coded blocks per scan chunk
#define C63EC_GRID    1024                  ///< blocks of the grid-stride stages

/** Stage 1 on the GPU: threads (coded blocks) of a thread block, and the
 *  grid for nblocks coded blocks. */
#define C63EC_CODE_THREADS 64
static inline int c63ec_code_grid(int nblocks)
{
    return (nblocks + C63EC_CODE_THREADS - 1) / C63EC_CODE_THREADS;
}

#if KERNEL_GPU
#define C63EC_CLZ(x) __clz(x)
#define C63EC_CTZLL(x) (__ffsll(x) - 1)
#else
#define C63EC_CLZ(x) __builtin_clz(x)
#define C63EC_CTZLL(x) __builtin_ctzll(x)
#endif

/** The Huffman codes: the layout of C63HuffCodes (libavcodec/c63/c63.h). */
typedef struct C63ECTables {
    unsigned short dc_code[2][12];
    unsigned char  dc_len[2][12];
    unsigned short ac_code[2][256];
    unsigned char  ac_len[2][256];
} C63ECTables;

/** A block's vector: the layout of C63MV. */
typedef struct C63ECMV {
    signed char x, y;
} C63ECMV;

/**
 * The x of a block in an inter frame coded without a vector (use_mv 0:
 * it predicts zero); no vector the format codes (sizes up to 7) has it.
 */
#define C63_MV_INTRA (-128)

/** What the frame's coding returns to the host. */
typedef struct C63ECInfo {
    unsigned long long size;    ///< packet bytes, header to EOI
    unsigned long long bits;    ///< entropy-coded bits
    unsigned long long nff;     ///< 0xFF bytes among the whole bytes (each stuffed)
    unsigned long long pad;
} C63ECInfo;

/** Buffers and geometry of one frame's coding. */
typedef struct C63ECParams {
    unsigned long long coef;    ///< short: 64 zigzag coefficients per block, 3 planes
    unsigned long long mv;      ///< C63ECMV per block, 3 planes (inter frames)
    unsigned long long slots;   ///< unsigned: C63EC_SLOT_WORDS per coded block
    unsigned long long len;     ///< unsigned: bits per coded block
    unsigned long long off;     ///< unsigned long long: bit offset per coded block
    unsigned long long sums;    ///< unsigned long long: per scan chunk
    unsigned long long words;   ///< unsigned: the frame's bits, MSB first
    unsigned long long ffsum;   ///< unsigned long long: per word chunk
    unsigned long long hdr;     ///< unsigned char[C63EC_HEADER_SIZE]: header template
    unsigned long long tables;  ///< C63ECTables
    unsigned long long pkt;     ///< unsigned char: the packet
    unsigned long long info;    ///< C63ECInfo
    unsigned long long boff[3]; ///< first block of each plane in coef (64 apart) and mv
    int bw[3];                  ///< blocks per row of each plane
    int mb_w, mb_h;             ///< MCUs
    int nblocks;                ///< coded blocks, 6 mb_w mb_h
    int nchunks;                ///< scan chunks, ceil(nblocks / C63EC_CHUNK)
    int keyframe;               ///< c63_cuda's kernels: -1 is c63_scene.key (c63_scene.h)
} C63ECParams;

/** Worst-case sizes of a frame of nblocks coded blocks. */
static inline unsigned long long c63ec_max_bits(long long nblocks)
{
    return (unsigned long long)nblocks * C63EC_BLOCK_MAX_BITS;
}

/** Words of the gathered bits: whole chunks of C63EC_THREADS words. */
static inline unsigned long long c63ec_max_words(long long nblocks)
{
    unsigned long long w = (c63ec_max_bits(nblocks) + 31) / 32;
    return (w + C63EC_THREADS - 1) / C63EC_THREADS * C63EC_THREADS;
}

/** Packet: header, every whole byte stuffed, the Q2 byte, EOI. */
static inline unsigned long long c63ec_max_packet(long long nblocks)
{
    return C63EC_HEADER_SIZE + 2 * (c63ec_max_bits(nblocks) / 8) + 1 + 2;
}

/** Bytes of each work buffer, 256-aligned, in the order of
 *  c63ec_init_params()'s layout. */
static inline void c63ec_buffer_sizes(unsigned long long size[9], int nblocks)
{
    const unsigned long long nchunks = (nblocks + C63EC_CHUNK - 1) / C63EC_CHUNK;
    const unsigned long long words = c63ec_max_words(nblocks);

    size[0] = (unsigned long long)nblocks * C63EC_SLOT_WORDS * 4;   /* slots */
    size[1] = (unsigned long long)nblocks * 4;                      /* len */
    size[2] = (unsigned long long)nblocks * 8;                      /* off */
    size[3] = nchunks * 8;                                          /* sums */
    size[4] = words * 4;                                            /* words */
    size[5] = words / C63EC_THREADS * 8;                            /* ffsum */
    size[6] = sizeof(C63ECInfo);                                    /* info */
    size[7] = sizeof(C63ECTables);                                  /* tables */
    size[8] = C63EC_HEADER_SIZE;                                    /* hdr */
    for (int i = 0; i < 9; i++)
        size[i] = (size[i] + 255) & ~255ull;
}

/**
 * Fill the geometry of an MCU grid and the work buffers' addresses, laid
 * out from base (a host or device address; 256-aligned), into p; return
 * the bytes they take. The caller sets coef, mv, pkt and keyframe, and
 * copies the tables (C63HuffCodes) and the header template in.
 */
static inline unsigned long long c63ec_init_params(C63ECParams *p, int mb_w, int mb_h,
                                                   unsigned long long base)
{
    unsigned long long size[9], *addr[9];
    const int nblocks = 6 * mb_w * mb_h;

    addr[0] = &p->slots;  addr[1] = &p->len;   addr[2] = &p->off;
    addr[3] = &p->sums;   addr[4] = &p->words; addr[5] = &p->ffsum;
    addr[6] = &p->info;   addr[7] = &p->tables; addr[8] = &p->hdr;
    c63ec_buffer_sizes(size, nblocks);
    for (int i = 0; i < 9; i++) {
        *addr[i] = base;
        base    += size[i];
    }
    p->boff[0]  = 0;
    p->boff[1]  = 4ull * mb_w * mb_h;
    p->boff[2]  = 5ull * mb_w * mb_h;
    p->bw[0]    = 2 * mb_w;
    p->bw[1]    = p->bw[2] = mb_w;
    p->mb_w     = mb_w;
    p->mb_h     = mb_h;
    p->nblocks  = nblocks;
    p->nchunks  = (nblocks + C63EC_CHUNK - 1) / C63EC_CHUNK;
    return base - *addr[0];
}

/* ------------------------------------------------------- stage 1: code */

typedef struct C63ECWriter {
    unsigned int *dst;
    unsigned long long acc;     ///< pending bits in the low n bits
    int n;                      ///< pending bits, < 32 between calls
    unsigned int bits;          ///< bits written
} C63ECWriter;

KERNEL_INLINE void c63ec_put(C63ECWriter *w, int len, unsigned int code)
{
    w->acc  = w->acc << len | (code & ((1ull << len) - 1));
    w->n   += len;
    w->bits += len;
    if (w->n >= 32) {
        w->n -= 32;
        *w->dst++ = (unsigned int)(w->acc >> w->n);
    }
}

KERNEL_INLINE void c63ec_flush(C63ECWriter *w)
{
    if (w->n)
        *w->dst = (unsigned int)(w->acc << (32 - w->n));
}

/** Size category of v: the bit length of |v|. */
KERNEL_INLINE int c63ec_size(int v)
{
    unsigned int a = v < 0 ? -v : v;
    return a ? 32 - C63EC_CLZ(a) : 0;
}

/** Size category with the code table, then the JPEG extra bits. */
KERNEL_INLINE void c63ec_put_value(C63ECWriter *w, const unsigned short *code,
                                   const unsigned char *len, int v)
{
    const int s = c63ec_size(v);

    c63ec_put(w, len[s], code[s]);
    if (s)
        c63ec_put(w, s, v - (v < 0));
}

/** Plane of coded block k (0..5) of an MCU. */
KERNEL_INLINE int c63ec_plane(int k)
{
    return k < 4 ? 0 : k - 3;
}

/** Block of coded block k of MCU mcu, counted in coef (64 apart) and mv;
 *  its column in the plane in *bx. */
KERNEL_INLINE unsigned long long c63ec_block(const C63ECParams *p, int mcu, int k, int *bx)
{
    const int u = mcu % p->mb_w, v = mcu / p->mb_w;
    const int pl = c63ec_plane(k);
    const int x = pl ? u : 2 * u + (k & 1);
    const int y = pl ? v : 2 * v + (k >> 1 & 1);

    *bx = x;
    return p->boff[pl] + (unsigned long long)y * p->bw[pl] + x;
}

/** Coefficients of coded block i: its block in coef (64 apart) and mv,
 *  and its column in the plane in *bx. */
KERNEL_INLINE unsigned long long c63ec_coded_block(const C63ECParams *p, int i, int *bx)
{
    const int mcu = i / 6;

    return c63ec_block(p, mcu, i - 6 * mcu, bx);
}

/**
 * Stage 1 for coded block i: its bits into slot, MSB first; return their
 * count. c: the block's 64 coefficients, at coef + 64 * its block or a
 * copy of them (the kernel's, in shared memory). The DC prediction is the
 * previous coded block of the same plane (0 at the start of the frame),
 * read from coef. The AC coefficients are visited through a mask of the
 * nonzero ones, each one's zero run the distance from the one before.
 */
KERNEL_INLINE unsigned int c63ec_code_block(const C63ECParams *p, const C63ECTables *t,
                                            const short *coef, const short *c,
                                            const C63ECMV *mv, int i, unsigned int *slot)
{
    const int mcu = i / 6, k = i - 6 * mcu;
    const int ch = k >= 4;
    const unsigned short *ac_code = t->ac_code[ch];
    const unsigned char  *ac_len  = t->ac_len[ch];
    C63ECWriter w;
    unsigned long long b, prev, m = 0;
    int bx, pbx, pred = 0, last = 0;

    w.dst  = slot;
    w.acc  = 0;
    w.n    = 0;
    w.bits = 0;

    b = c63ec_block(p, mcu, k, &bx);
    if (k >= 1 && k <= 3) {
        prev = c63ec_block(p, mcu, k - 1, &pbx);
        pred = coef[64 * prev];
    } else if (mcu) {
        prev = c63ec_block(p, mcu - 1, k ? k : 3, &pbx);
        pred = coef[64 * prev];
    }

    if (p->keyframe || mv[b].x == C63_MV_INTRA) {
        c63ec_put(&w, 1, 0);
    } else {
        const C63ECMV v = mv[b];
        c63ec_put(&w, 1, 1);
        /* (a left neighbour without a vector has x C63_MV_INTRA) */
        if (bx && mv[b - 1].x == v.x && mv[b - 1].y == v.y) {
            c63ec_put(&w, 1, 1);
        } else {
            c63ec_put(&w, 1, 0);
            c63ec_put_value(&w, t->dc_code[0], t->dc_len[0], v.x);
            c63ec_put_value(&w, t->dc_code[0], t->dc_len[0], v.y);
        }
    }
    c63ec_put_value(&w, t->dc_code[ch], t->dc_len[ch], c[0] - pred);

    for (int j = 1; j < 64; j++)
        m |= (unsigned long long)(c[j] != 0) << j;
    while (m) {
        const int j = C63EC_CTZLL(m), v = c[j];
        int run = j - last - 1, s;
        m &= m - 1;
        last = j;
        while (run >= 16) {
            c63ec_put(&w, ac_len[0xF0], ac_code[0xF0]);
            run -= 16;
        }
        s = c63ec_size(v);
        c63ec_put(&w, ac_len[run << 4 | s], ac_code[run << 4 | s]);
        c63ec_put(&w, s, v - (v < 0));
    }
    if (last < 63)
        c63ec_put(&w, ac_len[0x00], ac_code[0x00]);
    c63ec_flush(&w);
    return w.bits;
}

/* ------------------------------------------------------ stage 3: gather */

/** The last coded block j with off[j] <= pos (off[0] is 0). */
KERNEL_INLINE int c63ec_find_block(const unsigned long long *off, int n, unsigned long long pos)
{
    int lo = 0, hi = n - 1;

    while (lo < hi) {
        const int mid = (lo + hi + 1) >> 1;
        if (off[mid] <= pos)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/** cnt (1..32) bits of a slot from bit pos, right-aligned. The word after
 *  pos's is read only when the bits reach into it: past a block's last
 *  written word a slot holds whatever an earlier frame left, or nothing. */
KERNEL_INLINE unsigned int c63ec_slot_bits(const unsigned int *slot, unsigned int pos, int cnt)
{
    const unsigned int w1 = (int)(pos & 31) + cnt > 32 ? slot[(pos >> 5) + 1] : 0;
    const unsigned long long x = (unsigned long long)slot[pos >> 5] << 32 | w1;

    return (unsigned int)(x >> (64 - (pos & 31) - cnt)) & (unsigned int)((1ull << cnt) - 1);
}

/** Word wi of the frame's bits (zero bits past the end). */
KERNEL_INLINE unsigned int c63ec_gather_word(const unsigned long long *off, const unsigned int *len,
                                             const unsigned int *slots, int n,
                                             unsigned long long total, unsigned long long wi)
{
    unsigned long long pos = 32 * wi, end = pos + 32 < total ? pos + 32 : total;
    unsigned long long r = 0;
    int have = 0, j;

    if (pos >= total)
        return 0;
    j = c63ec_find_block(off, n, pos);
    while (pos < end) {
        const unsigned int b = (unsigned int)(pos - off[j]);
        const unsigned long long left = len[j] - b;
        const int cnt = (int)(left < end - pos ? left : end - pos);
        r = r << cnt | c63ec_slot_bits(slots + (unsigned long long)j * C63EC_SLOT_WORDS, b, cnt);
        have += cnt;
        pos  += cnt;
        j++;
    }
    return (unsigned int)(r << (32 - have));
}

/** Byte i (0..3) of a word, the first byte being the most significant. */
KERNEL_INLINE unsigned int c63ec_byte(unsigned int word, int i)
{
    return word >> (24 - 8 * i) & 0xFF;
}

/** 0xFF bytes of word wi among the frame's nfull whole bytes. */
KERNEL_INLINE int c63ec_word_ff(unsigned int word, unsigned long long wi, unsigned long long nfull)
{
    int n = 0;

    for (int i = 0; i < 4; i++)
        n += 4 * wi + i < nfull && c63ec_byte(word, i) == 0xFF;
    return n;
}

/* ------------------------------------------------------- stage 5: stuff */

/** The whole bytes of word wi at dst, a 0x00 after each 0xFF; return
 *  the bytes written. */
KERNEL_INLINE int c63ec_stuff_word(unsigned char *dst, unsigned int word, unsigned long long wi,
                                   unsigned long long nfull)
{
    int o = 0;

    for (int i = 0; i < 4 && 4 * wi + i < nfull; i++) {
        const unsigned int b = c63ec_byte(word, i);
        dst[o++] = b;
        if (b == 0xFF)
            dst[o++] = 0x00;
    }
    return o;
}

/* ------------------------------------------------------ stage 6: finish */

/** Header bytes first, first + step, ... from the template, with the
 *  keyframe byte set. */
KERNEL_INLINE void c63ec_header(unsigned char *dst, const unsigned char *tmpl, int key,
                                int first, int step)
{
    for (int i = first; i < C63EC_HEADER_SIZE; i += step)
        dst[i] = i == C63EC_KEY_OFFSET ? !!key : tmpl[i];
}

/**
 * What follows the stuffed whole bytes: quirk Q2's byte (the pending bits,
 * left-aligned, or 0x00 when none are pending) if and only if any of the
 * last 32 bits is set, then EOI. Return the bytes written. The Q2 byte has
 * at most 7 bits set, so it is never 0xFF and never stuffed.
 */
KERNEL_INLINE int c63ec_tail(unsigned char *dst, const unsigned int *words, unsigned long long nbits)
{
    const unsigned long long nfull = nbits >> 3;
    int nz = 0, o = 0;

    for (unsigned long long i = nbits > 32 ? nbits - 32 : 0; i < nbits; i++)
        nz |= words[i >> 5] >> (31 - (i & 31)) & 1;
    if (nz)
        dst[o++] = nbits & 7 ? c63ec_byte(words[nfull >> 2], nfull & 3) : 0;
    dst[o++] = 0xFF;
    dst[o++] = 0xD9;
    return o;
}

#endif /* KERNELS_C63_EC_H */
