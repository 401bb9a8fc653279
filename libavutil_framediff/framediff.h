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
 * Frame difference lists: how a frame carries one, and its layout.
 *
 * A list gives the bytes of a picture that a sender transmits to a
 * receiver, as produced by the framediff and cudadiff filters and carried
 * by the framediff codec. It is a self-contained byte string meant to be
 * transmitted as is.
 *
 * On a frame, the list is side data of type AV_FRAME_DATA_SEI_UNREGISTERED,
 * whose layout is that of a user data unregistered SEI message: 16 bytes of
 * a UUID, then the payload. The UUID AV_FRAME_DIFF_UUID,
 * 26faa268-8505-4d31-a960-708f3fcca29e, identifies the list; the payload,
 * from byte AV_FRAME_DIFF_UUID_SIZE on, is the list. To find it, go through
 * frame->side_data[] for the entry of type AV_FRAME_DATA_SEI_UNREGISTERED
 * that is at least AV_FRAME_DIFF_UUID_SIZE + AV_FRAME_DIFF_HEADER_SIZE bytes
 * long and whose first 16 bytes are the UUID, as
 * av_frame_diff_get_side_data() does:
 * @code
 * const AVFrameSideData *sd = av_frame_diff_get_side_data(frame);
 * if (sd) {
 *     const uint8_t *list = sd->data + AV_FRAME_DIFF_UUID_SIZE;
 *     size_t size         = sd->size - AV_FRAME_DIFF_UUID_SIZE;
 *     ...
 * }
 * @endcode
 * A frame may carry other entries of that type (an H.264 decoder exports
 * the encoder's own messages, x264's for one): av_frame_get_side_data()
 * returns the first of them, which need not be the list. A program that
 * writes a list replaces its own entry and leaves the others alone.
 *
 * This type rather than one of its own: programs built for a stock FFmpeg
 * know it (PyAV, for one, rejects a side data type it does not know), and
 * no type that a later FFmpeg adds can take its value; the UUID, not the
 * type, says what the data is. The price: an encoder told to embed user
 * data unregistered SEI (libx264, libx265 and nvenc with -udu_sei 1) puts
 * the list into its bitstream too; and the type is not marked as depending
 * on the picture's size, so filters that scale or convert a picture keep
 * its list. A list therefore carries the sizes of its planes, and a
 * receiver checks them against its picture.
 *
 * The list's fields are at offsets from its start (the byte after the
 * UUID). Every multi-byte field is little-endian, whatever the host.
 *
 * The picture is seen as planes of bytes: plane i is height[i] lines of
 * width[i] bytes without padding (the layout of av_image_copy_to_buffer()
 * with align 1, the planes one after the other). Byte q of plane i is the
 * byte at line q / width[i], column q % width[i].
 *
 * @code
 * offset      size  field
 *      0         1  version      AV_FRAME_DIFF_VERSION (2)
 *      1         1  flags        AV_FRAME_DIFF_FLAG_*
 *      2         1  nb_planes    1..4
 *      3         1  threshold    the sender's threshold
 *      4         4  nb_sent      n, the number of bytes sent
 *      8         4  frame_size   bytes in the picture (sum of width * height)
 *     12         4  frame_index  frames the sender had processed before
 *     16     4 * 4  width[4]     bytes per line of each plane (0 if absent)
 *     32     4 * 4  height[4]    lines of each plane (0 if absent)
 *     48         B  bitmap       for each plane i in turn,
 *                                AV_FRAME_DIFF_BITMAP_SIZE(width[i] * height[i])
 *                                bytes: bit (q & 7) of byte (q >> 3) is set
 *                                if byte q of the plane is sent; the bits
 *                                past the end of the plane are 0
 *   48+B         n  value[n]     the new value of each sent byte, plane 0
 *                                first, in increasing q within a plane
 * @endcode
 *
 * The bitmap holds exactly n set bits. The total size is 48 + B + n bytes,
 * at most frame_size / 8 + 4 + 48 + frame_size.
 *
 * A receiver keeps its picture R (all zero before the first frame) and
 * applies each frame's list in order: R = value at every sent byte. Since
 * the list carries values, not differences, every byte a receiver got is
 * correct even if earlier lists were lost; the others keep their stale
 * values until they are sent again (a refresh frame sends every byte).
 *
 * Version 1 (no longer produced) listed each sent byte as a uint32
 * position in the packed picture and an int16 difference: 48 + 6 n bytes.
 */

#ifndef AVUTIL_FRAMEDIFF_H
#define AVUTIL_FRAMEDIFF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "frame.h"

/** Bytes of the UUID before the list in the side data. */
#define AV_FRAME_DIFF_UUID_SIZE     16

/**
 * The UUID that marks a list, 26faa268-8505-4d31-a960-708f3fcca29e: an
 * initializer of uint8_t[AV_FRAME_DIFF_UUID_SIZE].
 */
#define AV_FRAME_DIFF_UUID { 0x26, 0xfa, 0xa2, 0x68, 0x85, 0x05, 0x4d, 0x31, \
                             0xa9, 0x60, 0x70, 0x8f, 0x3f, 0xcc, 0xa2, 0x9e }

#define AV_FRAME_DIFF_VERSION        2
#define AV_FRAME_DIFF_HEADER_SIZE   48

/**
 * Set on refresh frames: every byte of the picture is sent, whatever the
 * threshold, so that a receiver that lost lists is exact again.
 */
#define AV_FRAME_DIFF_FLAG_REFRESH  (1 << 0)

/** Byte offsets of the header fields, from the start of the list. */
#define AV_FRAME_DIFF_OFF_VERSION      0
#define AV_FRAME_DIFF_OFF_FLAGS        1
#define AV_FRAME_DIFF_OFF_NB_PLANES    2
#define AV_FRAME_DIFF_OFF_THRESHOLD    3
#define AV_FRAME_DIFF_OFF_NB_SENT      4
#define AV_FRAME_DIFF_OFF_FRAME_SIZE   8
#define AV_FRAME_DIFF_OFF_FRAME_INDEX 12
#define AV_FRAME_DIFF_OFF_WIDTH(i)    (16 + 4 * (i))
#define AV_FRAME_DIFF_OFF_HEIGHT(i)   (32 + 4 * (i))

/** Offset of the bitmap (of plane 0). */
#define AV_FRAME_DIFF_OFF_BITMAP      AV_FRAME_DIFF_HEADER_SIZE

/** Bytes of the bitmap of a plane of the given number of bytes. */
#define AV_FRAME_DIFF_BITMAP_SIZE(bytes) (((size_t)(bytes) + 7) >> 3)

/**
 * Size in bytes of a list whose bitmaps take bitmap_size bytes in all and
 * which sends n bytes (the UUID before it not counted).
 */
#define AV_FRAME_DIFF_SIZE(bitmap_size, n) \
    (AV_FRAME_DIFF_HEADER_SIZE + (size_t)(bitmap_size) + (size_t)(n))

/**
 * Find the difference list of a frame.
 *
 * @return the AV_FRAME_DATA_SEI_UNREGISTERED entry of frame whose UUID is
 *         AV_FRAME_DIFF_UUID and which is long enough for a list header, or
 *         NULL if there is none. The list is the entry's data from
 *         AV_FRAME_DIFF_UUID_SIZE on, size - AV_FRAME_DIFF_UUID_SIZE bytes;
 *         its fields are not checked.
 */
static inline AVFrameSideData *av_frame_diff_get_side_data(const AVFrame *frame)
{
    static const uint8_t uuid[AV_FRAME_DIFF_UUID_SIZE] = AV_FRAME_DIFF_UUID;
    int i;

    for (i = 0; i < frame->nb_side_data; i++) {
        AVFrameSideData *sd = frame->side_data[i];
        if (sd->type == AV_FRAME_DATA_SEI_UNREGISTERED &&
            sd->size >= AV_FRAME_DIFF_UUID_SIZE + AV_FRAME_DIFF_HEADER_SIZE &&
            !memcmp(sd->data, uuid, AV_FRAME_DIFF_UUID_SIZE))
            return sd;
    }
    return NULL;
}

#endif /* AVUTIL_FRAMEDIFF_H */
