/*
 * c63's parallel entropy decoding's CPU twin against the serial decoder:
 * what hdserial and the twin's fuzzer share
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
 * Twin: the twin (c63hd_serial.h) and the decoder's own reconstruction on
 * the packets whose header the serial decoder accepted; twin_decode()
 * gives a picture or the hwaccel's error and message (ff_c63_hd_status()).
 * log_cb keeps the last error message; entropy_stage() says whether a
 * message of the serial decoder is one the hwaccel gives itself (else the
 * packet never reaches it). same_picture() compares the coded area.
 */

#ifndef TESTS_HDCOMPARE_H
#define TESTS_HDCOMPARE_H

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "libavcodec/avcodec.h"
#include "libavutil/frame.h"
#include "libavutil/log.h"
#include "libavcodec/c63/c63.h"
#include "libavcodec/c63/c63dsp.h"
#include "libavcodec/c63/c63hd.h"
}
#include "tests/c63/harness/c63hd_serial.h"

static std::string last_error;   ///< the last error message logged
static inline void log_cb(void *avcl, int level, const char *fmt, va_list vl)
{
    char line[1024];
    if (level > AV_LOG_ERROR)
        return;
    vsnprintf(line, sizeof(line), fmt, vl);
    last_error = line;
}

/* The messages of the entropy-coded data's checks: what the hwaccel
 * reports itself (ff_c63_hd_status). */
static inline bool entropy_stage(const std::string &m)
{
    static const char *const prefix[] = {
        "Truncated frame: no EOI", "Unexpected marker", "Motion vector in a keyframe",
        "Vector reuse without", "Invalid motion vector code", "Motion vector (",
        "Invalid DC code", "DC coefficient out of range", "Invalid AC code",
        "AC run past the end", "Entropy-coded data ends too early",
    };
    for (const char *p : prefix)
        if (!m.compare(0, strlen(p), p))
            return strncmp(p, "Unexpected marker", 17) || m.find("entropy-coded data") != std::string::npos;
    return false;
}

struct Twin {
    C63DSPContext dsp;
    C63HDTables tables;
    C63Geometry geo;
    bool have_geo = false;
    int width = 0, height = 0;          // the serial decoder's
    std::vector<uint8_t> plane[2][3];   // [cur/ref][plane], stride w[p]
    std::vector<unsigned char> data;
    std::vector<unsigned> chunks, start, info;
    std::vector<c63hd_state> entry, exit_;
    std::vector<C63HDSum> sums, cps, gsums, lcps;
    std::vector<c63hd_state> cp, guess, lcp;
    std::vector<unsigned char> link;
    std::vector<short> coef;
    std::vector<signed char> mv;
    int redone = 0;
};

/* The twin on one packet whose header the serial decoder accepted: 0 and a
 * picture, or the error (message in last_error). */
static inline int twin_decode(Twin *tw, const uint8_t *buf, int size)
{
    const uint8_t *p = buf + 2, *end = buf + size, *data = NULL;
    int width = 0, height = 0, keyframe = 0;
    uint8_t q[3][64];
    C63HDParams hp = {};
    C63HDStatus st = {};
    int ret;

    /* The header as the serial decoder reads it (it accepted it): its
     * segments in any order, DQT's length 2 short (quirk Q1). */
    while (!data && end - p >= 4) {
        const int marker = p[1], len = p[2] << 8 | p[3];
        p += 2;
        switch (marker) {
        case C63_DQT:
            p += 2;
            for (int c = 0; c < 3; c++, p += 65)
                memcpy(q[c], p + 1, 64);
            break;
        case C63_SOF0:
            height   = p[3] << 8 | p[4];
            width    = p[5] << 8 | p[6];
            keyframe = p[17];
            p += 18;
            break;
        case C63_SOS:
            data = p + 12;
            break;
        default:
            p += len;
            break;
        }
    }
    if (!data || width != tw->width || height != tw->height) {
        fprintf(stderr, "hdserial: a header the serial decoder accepted is not understood\n");
        exit(2);
    }
    if (!tw->have_geo) {
        ff_c63_geometry(&tw->geo, width, height);
        for (int n = 0; n < 2; n++)
            for (int i = 0; i < 3; i++)
                tw->plane[n][i].assign((size_t)tw->geo.w[i] * tw->geo.h[i], 0);
        tw->have_geo = true;
    }
    ff_c63_hd_params(&hp, &tw->geo, end - data, keyframe);
    tw->data.assign((size_t)hp.pkt_size + C63HD_PAD, 0);
    tw->chunks.assign(hp.nchunks + 1, 0);
    tw->entry.assign(hp.nsegs, 0);
    tw->exit_.assign(hp.nsegs, 0);
    tw->sums.assign(hp.nsegs, C63HDSum());
    tw->cp.assign((size_t)hp.nsegs * C63HD_REC, 0);
    tw->cps.assign((size_t)hp.nsegs * C63HD_REC, C63HDSum());
    tw->guess.assign((size_t)hp.nsegs * C63HD_GUESSES * C63HD_REC, 0);
    tw->gsums.assign((size_t)hp.nsegs * C63HD_GUESSES * C63HD_REC, C63HDSum());
    tw->link.assign((size_t)hp.nsegs * 8, 0);
    tw->lcp.assign((size_t)hp.nsegs * C63HD_GUESSES * C63HD_REC, 0);
    tw->lcps.assign((size_t)hp.nsegs * C63HD_GUESSES * C63HD_REC, C63HDSum());
    tw->start.assign((size_t)hp.nblocks + 1, 0);
    tw->info.assign(hp.nblocks, 0);
    tw->coef.assign((size_t)64 * hp.nblocks, 0);
    tw->mv.assign((size_t)2 * hp.nblocks, 0);
    hp.pkt    = (uintptr_t)data;
    hp.data   = (uintptr_t)tw->data.data();
    hp.chunks = (uintptr_t)tw->chunks.data();
    hp.status = (uintptr_t)&st;
    hp.tables = (uintptr_t)&tw->tables;
    hp.entry  = (uintptr_t)tw->entry.data();
    hp.exit   = (uintptr_t)tw->exit_.data();
    hp.sums   = (uintptr_t)tw->sums.data();
    hp.cp     = (uintptr_t)tw->cp.data();
    hp.cps    = (uintptr_t)tw->cps.data();
    hp.guess  = (uintptr_t)tw->guess.data();
    hp.gsums  = (uintptr_t)tw->gsums.data();
    hp.link   = (uintptr_t)tw->link.data();
    hp.lcp    = (uintptr_t)tw->lcp.data();
    hp.lcps   = (uintptr_t)tw->lcps.data();
    hp.start  = (uintptr_t)tw->start.data();
    hp.info   = (uintptr_t)tw->info.data();
    hp.coef   = (uintptr_t)tw->coef.data();
    hp.mv     = (uintptr_t)tw->mv.data();
    c63hd_decode_cpu(&hp);
    tw->redone += st.redone;

    last_error.clear();
    ret = ff_c63_hd_status(NULL, &hp, &st, data);
    if (ret < 0)
        return ret;

    for (int i = 0; i < 3; i++) {
        const int w = tw->geo.w[i];
        uint8_t *cur = tw->plane[0][i].data(), *ref = tw->plane[1][i].data();
        for (int by = 0; by < hp.bh[i]; by++)
            for (int bx = 0; bx < hp.bw[i]; bx++) {
                const size_t b = (size_t)hp.first[i] + by * hp.bw[i] + bx;
                const signed char *v = &tw->mv[2 * b];
                const uint8_t *pred = keyframe || v[0] == C63_MV_INTRA ? NULL :
                                      ref + (8 * by + v[1]) * w + 8 * bx + v[0];
                tw->dsp.dequant_idct_add(cur + 8 * by * w + 8 * bx, w, pred, w,
                                         &tw->coef[64 * b], q[i], 8);
            }
    }
    for (int i = 0; i < 3; i++)
        tw->plane[0][i].swap(tw->plane[1][i]);
    return 0;
}


/* The serial decoder on pkt: its status, its message in *msg. */
static inline int serial_decode(AVCodecContext *dec, const AVPacket *pkt, AVFrame *frame,
                                std::string *msg)
{
    int ret;
    last_error.clear();
    ret = avcodec_send_packet(dec, pkt);
    if (ret >= 0)
        ret = avcodec_receive_frame(dec, frame);
    *msg = last_error;
    return ret;
}

/* The twin's last picture and the serial decoder's frame, the whole
 * coded area. */
static inline bool same_picture(const Twin &tw, const AVFrame *frame)
{
    for (int i = 0; i < 3; i++)
        for (int y = 0; y < tw.geo.h[i]; y++)
            if (memcmp(frame->data[i] + (ptrdiff_t)y * frame->linesize[i],
                       tw.plane[1][i].data() + (size_t)y * tw.geo.w[i], tw.geo.w[i]))
                return false;
    return true;
}

#endif /* TESTS_HDCOMPARE_H */
