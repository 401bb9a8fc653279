/*
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
 * Raw Codec63 demuxer. Frames are split by the c63 parser; the frame rate
 * is not stored in the stream and is set with -framerate (default 25).
 */

#include "libavutil/intreadwrite.h"
#include "libavformat/avformat.h"
#include "libavformat/rawdec.h"

/* Every c63 frame starts with SOI and a DQT segment whose length field is
 * 0x00C3 (two short of its payload, a quirk of the format), followed at a
 * fixed offset by SOF0 with three components sampled 2x2, 1x1, 1x1 and the
 * c63 keyframe byte, then DHT. Ordinary JPEG files never have that DQT
 * length (three tables of 64 bytes need 0x00C5). */
static int c63_probe(const AVProbeData *p)
{
    static const uint8_t head[] = { 0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0xC3, 0x00 };
    static const uint8_t comps[] = { 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x02 };
    const uint8_t *b = p->buf;

    if (p->buf_size < 225 || memcmp(b, head, sizeof(head)))
        return 0;
    if (b[71] != 1 || b[136] != 2)
        return 0;
    if (AV_RB32(b + 201) != 0xFFC00012 || b[205] != 8 ||
        !AV_RB16(b + 206) || !AV_RB16(b + 208) ||
        memcmp(b + 210, comps, sizeof(comps)) || b[220] > 1 ||
        AV_RB16(b + 221) != 0xFFC4)
        return 0;
    return AVPROBE_SCORE_MAX;
}

FF_DEF_RAWVIDEO_DEMUXER(c63, "raw Codec63", c63_probe, "c63", AV_CODEC_ID_C63)
