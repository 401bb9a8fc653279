/*
 * Codec63: shared tables and header writer
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

#include <string.h>

#include "libavutil/common.h"
#include "libavutil/intreadwrite.h"
#include "libavutil/mem_internal.h"
#include "libavutil/thread.h"
#include "libavcodec/jpegtables.h"

#include "c63.h"
#include "c63dct.h"

#define FLAT32 \
    32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, \
    32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, \
    32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, \
    32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32

/* By anti-diagonal u + v, in zigzag order: 32 up to 6, then 44, 96, and
 * 252 from 9 on. */
#define SSIM_STEPS \
     32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32, \
     32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  44,  44,  44,  44, \
     44,  44,  44,  44,  96,  96,  96,  96,  96,  96,  96, 252, 252, 252, 252, 252, \
    252, 252, 252, 252, 252, 252, 252, 252, 252, 252, 252, 252, 252, 252, 252, 252

const uint8_t ff_c63_quant_base[C63_NB_TABLES][2][64] = {
    [C63_TABLES_ANNEXK] = { {
        /* JPEG Annex K.1 in zigzag order, with the reference's 30 at
         * position 29 (K.1 has 60 there). */
        16,  11,  12,  14,  12,  10,  16,  14,  13,  14,  18,  17,  16,  19,  24,  40,
        26,  24,  22,  22,  24,  49,  35,  37,  29,  40,  58,  51,  61,  30,  57,  51,
        56,  55,  64,  72,  92,  78,  64,  68,  87,  69,  55,  56,  80, 109,  81,  87,
        95,  98, 103, 104, 103,  62,  77, 113, 121, 112, 100, 120,  92, 101, 103,  99,
    }, {
        17,  18,  18,  24,  21,  24,  47,  26,  26,  47,  99,  66,  56,  66,  99,  99,
        99,  99,  99,  99,  99,  99,  99,  99,  99,  99,  99,  99,  99,  99,  99,  99,
        99,  99,  99,  99,  99,  99,  99,  99,  99,  99,  99,  99,  99,  99,  99,  99,
        99,  99,  99,  99,  99,  99,  99,  99,  99,  99,  99,  99,  99,  99,  99,  99,
    } },
    /* The same step for every coefficient of every plane: what minimises
     * the squared error (PSNR) for a given rate, where Annex K spends
     * fewer bits on what the eye sees less. */
    [C63_TABLES_FLAT] = { { FLAT32 }, { FLAT32 } },
    /* For SSIM, the same for every plane: coarse steps for the highest
     * frequencies save bits at little cost in SSIM (chosen by measurement
     * on camera footage, docs/c63.md). */
    [C63_TABLES_SSIM] = { { SSIM_STEPS }, { SSIM_STEPS } },
};

/* Aligned for the x86 assembly, which loads its rows whole. */
DECLARE_ALIGNED(32, const float, ff_c63_dct_lookup)[8][8]     = C63_DCT_TABLE;
DECLARE_ALIGNED(32, const float, ff_c63_dct_transposed)[8][8] = C63_DCT_TABLE_T;

void ff_c63_geometry(C63Geometry *g, int width, int height)
{
    g->width  = width;
    g->height = height;
    g->mb_w   = (width  + 15) >> 4;
    g->mb_h   = (height + 15) >> 4;
    g->w[0]   = g->mb_w * 16;
    g->h[0]   = g->mb_h * 16;
    g->w[1]   = g->w[2] = g->mb_w * 8;
    g->h[1]   = g->h[2] = g->mb_h * 8;
}

/* A step of our own tables (all but Annex K) is rounded to a multiple of
 * 4 (4 to 252): the decoder rebuilds level x q as 4 round(level x q / 4),
 * exactly level x q only then (docs/c63-format.md section 5). */
static int own_step(double v)
{
    return av_clip(4 * (int)lrint(v / 4), 4, 252);
}

void ff_c63_quant_tables(uint8_t q[3][64], int tables, int qp)
{
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 64; k++) {
            double v = ff_c63_quant_base[tables][!!c][k] / (qp / 10.0);
            if (tables != C63_TABLES_ANNEXK) {
                q[c][k] = own_step(v);
                continue;
            }
            q[c][k] = av_clip((int)v, 1, 255);
        }
}

void ff_c63_quant_tables_scale(uint8_t q[3][64], int tables, double qscale)
{
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 64; k++)
            q[c][k] = tables != C63_TABLES_ANNEXK
                    ? own_step(ff_c63_quant_base[tables][!!c][k] * qscale / 10)
                    : av_clip((int)(ff_c63_quant_base[tables][!!c][k] * qscale / 10), 1, 255);
}

C63HuffCodes ff_c63_huff;

/* Canonical JPEG code assignment (ITU-T T.81 Annex C) from a bits/val pair
 * as stored in jpegtables.c (bits has a leading 0). */
static void build_codes(uint8_t *len, uint16_t *code,
                        const uint8_t *bits, const uint8_t *val)
{
    int k = 0, c = 0;

    for (int l = 1; l <= 16; l++) {
        for (int n = 0; n < bits[l]; n++) {
            len[val[k]]  = l;
            code[val[k]] = c++;
            k++;
        }
        c <<= 1;
    }
}

static void init_huff_codes(void)
{
    C63HuffCodes *h = &ff_c63_huff;

    build_codes(h->dc_len[0], h->dc_code[0], ff_mjpeg_bits_dc_luminance,   ff_mjpeg_val_dc);
    build_codes(h->dc_len[1], h->dc_code[1], ff_mjpeg_bits_dc_chrominance, ff_mjpeg_val_dc);
    build_codes(h->ac_len[0], h->ac_code[0], ff_mjpeg_bits_ac_luminance,   ff_mjpeg_val_ac_luminance);
    build_codes(h->ac_len[1], h->ac_code[1], ff_mjpeg_bits_ac_chrominance, ff_mjpeg_val_ac_chrominance);
}

void ff_c63_init_huff_codes(void)
{
    static AVOnce once = AV_ONCE_INIT;
    ff_thread_once(&once, init_huff_codes);
}

static uint8_t *put_table(uint8_t *p, int id, const uint8_t *bits, const uint8_t *val)
{
    int n = 0;

    *p++ = id;
    for (int i = 1; i <= 16; i++)
        n += *p++ = bits[i];
    memcpy(p, val, n);
    return p + n;
}

int ff_c63_dht_payload(uint8_t *buf)
{
    uint8_t *p = buf;

    p = put_table(p, 0x00, ff_mjpeg_bits_dc_luminance,   ff_mjpeg_val_dc);
    p = put_table(p, 0x01, ff_mjpeg_bits_dc_chrominance, ff_mjpeg_val_dc);
    p = put_table(p, 0x10, ff_mjpeg_bits_ac_luminance,   ff_mjpeg_val_ac_luminance);
    p = put_table(p, 0x11, ff_mjpeg_bits_ac_chrominance, ff_mjpeg_val_ac_chrominance);
    return p - buf;
}

void ff_c63_write_header(uint8_t *buf, int width, int height, int keyframe,
                         const uint8_t q[3][64])
{
    static const uint8_t sof_tail[9] = { 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 2 };
    static const uint8_t sos[14] = {
        0xFF, C63_SOS, 0x00, 0x0C, 3, 1, 0x00, 2, 0x11, 3, 0x11, 0x00, 0x3F, 0x00
    };
    uint8_t *p = buf;

    *p++ = 0xFF; *p++ = C63_SOI;

    /* DQT: the length field says 195 although 195 bytes follow it
     * (quirk Q1, docs/c63-format.md section 3.4). */
    *p++ = 0xFF; *p++ = C63_DQT;
    AV_WB16(p, 195); p += 2;
    for (int c = 0; c < 3; c++) {
        *p++ = c;
        memcpy(p, q[c], 64);
        p += 64;
    }

    *p++ = 0xFF; *p++ = C63_SOF0;
    AV_WB16(p, 18); p += 2;
    *p++ = 8;
    AV_WB16(p, height); p += 2;
    AV_WB16(p, width);  p += 2;
    *p++ = 3;
    memcpy(p, sof_tail, sizeof(sof_tail)); p += sizeof(sof_tail);
    *p++ = !!keyframe;

    *p++ = 0xFF; *p++ = C63_DHT;
    AV_WB16(p, 0x1A2); p += 2;
    p += ff_c63_dht_payload(p);

    memcpy(p, sos, sizeof(sos));
}
