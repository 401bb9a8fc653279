/*
 * Codec63: shared definitions
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
 * Codec63 (c63): the University of Oslo's teaching codec. JPEG-like
 * intra/inter coding of planar 4:2:0 with 8x8 blocks, integer motion
 * vectors and a float DCT. Tables, geometry and bitstream constants shared
 * by the decoder, the CPU encoder and the CUDA encoder.
 */

#ifndef AVCODEC_C63_C63_H
#define AVCODEC_C63_C63_H

#include <stdint.h>

#define C63_QP_MIN      1
#define C63_QP_MAX     50
#define C63_QP_DEFAULT 25
/* Bounds of the quantiser scale q of rate control: the tables are
 * base * q / 10 (q = 100 / qp); 2 is the finest -quality (50), at 255
 * every entry is 255. */
#define C63_QSCALE_MIN   2
#define C63_QSCALE_MAX 255
#define C63_GOP_DEFAULT 100
#define C63_RANGE_DEFAULT 16
#define C63_RANGE_MAX  64

/** The base quantisation tables an encoder may scale (-tables). */
enum C63Tables {
    C63_TABLES_ANNEXK,  ///< JPEG Annex K (with quirk Q5): the reference's
    C63_TABLES_FLAT,    ///< one step for every coefficient, 32 (for PSNR), scaled
                        ///< to a multiple of 4
    C63_TABLES_SSIM,    ///< 32 at low frequencies, coarser above (for SSIM),
                        ///< scaled to a multiple of 4
    C63_NB_TABLES,
};

/* Size of the fixed frame header, from SOI to the end of SOS. */
#define C63_HEADER_SIZE 655
/* Offsets into the header. */
#define C63_DQT_OFFSET   2
#define C63_SOF_OFFSET 201
#define C63_DHT_OFFSET 221
#define C63_SOS_OFFSET 641

enum C63Marker {
    C63_SOI  = 0xD8,
    C63_EOI  = 0xD9,
    C63_SOF0 = 0xC0,
    C63_DHT  = 0xC4,
    C63_DQT  = 0xDB,
    C63_SOS  = 0xDA,
};

/** Padded plane geometry of a width x height picture. */
typedef struct C63Geometry {
    int width, height;      ///< picture size
    int w[3], h[3];         ///< padded plane sizes (Y, U, V)
    int mb_w, mb_h;         ///< MCUs (16x16 luma) per row and column
} C63Geometry;

void ff_c63_geometry(C63Geometry *g, int width, int height);

/** Motion vector of one 8x8 block. */
typedef struct C63MV {
    int8_t x, y;
} C63MV;

/** Base quantisation tables in zigzag order: [0] luma, [1] chroma. */
extern const uint8_t ff_c63_quant_base[C63_NB_TABLES][2][64];

/** The reference's DCT basis, T[i][j] = cos((2i+1) j pi / 16) as floats. */
extern const float ff_c63_dct_lookup[8][8];
/** Its transpose, Tt[j][i] = T[i][j] (for the x86 assembly). */
extern const float ff_c63_dct_transposed[8][8];

/** The reference's 1/sqrt(2) scale factor. */
#define C63_ISQRT2 0.70710678118654f

/**
 * Quantisation tables for quality factor qp (1..50), in zigzag order: the
 * base tables (enum C63Tables) / (qp / 10), truncated (clamped to 1..255,
 * where the reference wraps modulo 256 below qp 5); the steps of the
 * other tables rounded to the nearest multiple of 4 (4..252) instead.
 */
void ff_c63_quant_tables(uint8_t q[3][64], int tables, int qp);

/**
 * Quantisation tables for quantiser scale qscale (C63_QSCALE_MIN ..
 * C63_QSCALE_MAX): base * qscale / 10, truncated, clamped to 1..255 (other
 * than Annex K: rounded to a multiple of 4, 4..252).
 */
void ff_c63_quant_tables_scale(uint8_t q[3][64], int tables, double qscale);

/** Huffman code (code, length) of each symbol of the four JPEG tables. */
typedef struct C63HuffCodes {
    uint16_t dc_code[2][12];
    uint8_t  dc_len[2][12];
    uint16_t ac_code[2][256];
    uint8_t  ac_len[2][256];
} C63HuffCodes;

extern C63HuffCodes ff_c63_huff;
/** Initialise ff_c63_huff once (thread-safe). */
void ff_c63_init_huff_codes(void);

/**
 * Write the 655-byte frame header (SOI, DQT, SOF0, DHT, SOS) into buf.
 */
void ff_c63_write_header(uint8_t *buf, int width, int height, int keyframe,
                         const uint8_t q[3][64]);

/** The 416 DHT payload bytes after the length field (standard tables). */
int ff_c63_dht_payload(uint8_t *buf);

#endif /* AVCODEC_C63_C63_H */
