/*
 * Codec63 frame writer (shared by the c63 and c63_cuda encoders)
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

#ifndef AVCODEC_C63_C63ENC_H
#define AVCODEC_C63_C63ENC_H

#include <stdint.h>

#include "libavutil/frame.h"
#include "libavutil/opt.h"
#include "libavcodec/avcodec.h"
#include "libavcodec/me_cmp.h"

#include "c63.h"
#include "c63dsp.h"
#include "c63rd.h"

/** Options common to the c63 encoders, with the same names and defaults. */
#define C63_ENCODER_OPTIONS(Ctx)                                                 \
    { "quality", "Quality factor (higher is finer)", offsetof(Ctx, qp),          \
      AV_OPT_TYPE_INT, { .i64 = C63_QP_DEFAULT }, C63_QP_MIN, C63_QP_MAX, VE },  \
    { "tables", "Base quantisation tables", offsetof(Ctx, tables),               \
      AV_OPT_TYPE_INT, { .i64 = C63_TABLES_ANNEXK }, 0, C63_NB_TABLES - 1, VE,  \
      .unit = "tables" },                                                        \
    { "annexk", "JPEG Annex K, as the reference (perceptual)", 0,                \
      AV_OPT_TYPE_CONST, { .i64 = C63_TABLES_ANNEXK }, 0, 0, VE, .unit = "tables" }, \
    { "flat", "One step for every coefficient (best PSNR per bit)", 0,           \
      AV_OPT_TYPE_CONST, { .i64 = C63_TABLES_FLAT }, 0, 0, VE, .unit = "tables" }, \
    { "ssim", "Flat at low frequencies, coarser above (best SSIM per bit)", 0,   \
      AV_OPT_TYPE_CONST, { .i64 = C63_TABLES_SSIM }, 0, 0, VE, .unit = "tables" }, \
    { "mv_rd", "Choose each vector by SAD + lambda x its bits, among the best-SAD " \
      "one, (0, 0) and the left neighbour's", offsetof(Ctx, mv_rd),              \
      AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, VE },                                \
    { "intra_rd", "Code a block of an inter frame without a vector (use_mv 0, " \
      "predicting zero) where that costs less than its vector, by SAD + lambda x bits", \
      offsetof(Ctx, intra_rd), AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, VE },      \
    { "sc_threshold", "Scene cuts: keyframe where more than (100 - this)% of the " \
      "luma changes brightness class; -1: 70 where the encoder makes choices of its " \
      "own, else none; 0: none", offsetof(Ctx, sc_threshold),                    \
      AV_OPT_TYPE_INT, { .i64 = -1 }, -1, 100, VE },

/**
 * Codec defaults common to the c63 encoders: -g 100, -me_range 0 (= 16),
 * and no bitrate (libavcodec's default would turn rate control on).
 */
#define C63_ENCODER_DEFAULTS        \
    { "b",        "0"   },          \
    { "g",        "100" },          \
    { "me_range", "0"   },          \
    { NULL },

/** Coded data of one frame, as the entropy writer takes it. */
typedef struct C63CodedFrame {
    int16_t *coef[3];   ///< 64 zigzag coefficients per block, block raster order
    C63MV   *mv[3];     ///< vector per block (inter frames), block raster order
    int      keyframe;
} C63CodedFrame;

/**
 * What the coding of an MCU row reads and writes (ff_c63_encode_row()):
 * the encoder's routines and tables, and the planes of one frame, each
 * padded to g->w[p] x g->h[p] with the padded width as its stride.
 */
typedef struct C63RowCoding {
    const C63DSPContext *dsp;
    const MECmpContext  *mecc;      ///< SAD per candidate where dsp has no me_search
    const C63Geometry   *g;
    const uint8_t      (*q)[64];    ///< the quantisation tables, q[3][64]
    int                 limit_ac;   ///< keep AC levels to what the reference decoder reads
    const C63RDParams  *rd;         ///< the frame's rate-distortion decisions
    const int           *range;     ///< the search range of each plane
    const AVFrame       *src;       ///< the input picture (yuv420p)
    uint8_t             *orig[3];   ///< the padded input, filled row by row
    const uint8_t       *ref[3];    ///< the previous reconstruction (inter frames)
    const uint16_t      *ref_sums[3]; ///< its 8x2 sums (ff_c63_block_sums())
    uint8_t             *rec[3];    ///< the reconstruction
    C63CodedFrame       *coded;     ///< the coefficients and vectors; keyframe set
    int                 *dcz;       ///< -trellis 2: a block's exact DC (z4), all planes
    uint8_t             *dcb;       ///< -trellis 2: a byte a block (the DC chain's)
} C63RowCoding;

/**
 * Code MCU row v of a frame as the c63 encoder does: the row's input into
 * the padded planes, then for each of its blocks the motion search against
 * the reference (inter frames: the rows of ref and ref_sums within the
 * search range must be done), the transform, quantisation and
 * reconstruction; the coefficients and vectors go into coded. Rows may be
 * coded in any order and on any thread once what they read is done.
 */
void ff_c63_encode_row(const C63RowCoding *c, int v);

/**
 * Entropy writer state, kept between frames. Each MCU row is coded into its
 * own bit buffer (in parallel, on the encoder's threads); as soon as a row
 * and all rows above it are coded, the thread that coded the last of them
 * joins them in order at bit granularity and byte-stuffs their whole bytes,
 * so that the packet needs only a copy at the end.
 */
typedef struct C63Writer {
    uint8_t  *rows;         ///< one bit buffer per MCU row, row_stride bytes apart
    unsigned  rows_size;
    size_t    row_stride;
    int       row_max;      ///< bytes a row may code into
    uint8_t  *bits;         ///< the joined rows' bits
    unsigned  bits_size;
    uint8_t  *out;          ///< the joined rows' whole bytes, stuffed
    unsigned  out_size;
    uint64_t *row_bits;     ///< bits coded by each row
    uint8_t  *row_coded;    ///< set when a row is coded and not yet joined
    int       nb_rows;
    int       joined;       ///< rows joined, from the top
    uint64_t  nbits;        ///< bits joined; their whole bytes are stuffed into out
    size_t    out_len;      ///< bytes of out
    struct C63WriterLock *lock;
} C63Writer;

/**
 * Validate size, pixel format and options shared by both encoders
 * (-trellis 0, 1 or 2 among them), and return the search ranges to use.
 */
int ff_c63_encode_check(AVCodecContext *avctx, int qp, int range[3]);

/**
 * Entropy-code a frame and write it, headers and all, into pkt, in three
 * steps: ff_c63_write_begin() (the buffers for g), then ff_c63_write_row()
 * for every MCU row v, in any order and on any thread (row v reads the
 * coefficients of rows v - 1 and v, and the vectors of row v; the rows are
 * joined and stuffed as they come), then ff_c63_write_end() (the packet).
 * The output does not depend on the order of the rows.
 */
int ff_c63_write_begin(C63Writer *w, const C63Geometry *g);
void ff_c63_write_row(C63Writer *w, const C63Geometry *g, const C63CodedFrame *f, int v);
int ff_c63_write_end(AVCodecContext *avctx, C63Writer *w, AVPacket *pkt,
                     const C63Geometry *g, const uint8_t q[3][64],
                     const C63CodedFrame *f);

void ff_c63_writer_free(C63Writer *w);

#endif /* AVCODEC_C63_C63ENC_H */
