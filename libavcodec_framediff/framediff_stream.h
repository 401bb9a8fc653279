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
 * The framediff codec's stream (docs/cudadiff.md): extradata
 * "FDIF", a version byte and the pixel format's name, NUL-terminated;
 * each packet one difference list (libavutil/framediff.h) compressed
 * by zlib.
 */

#ifndef AVCODEC_FRAMEDIFF_FRAMEDIFF_STREAM_H
#define AVCODEC_FRAMEDIFF_FRAMEDIFF_STREAM_H

#define FRAMEDIFF_EXTRADATA_TAG     "FDIF"
#define FRAMEDIFF_EXTRADATA_VERSION 1
/** "FDIF", version, name, NUL: the name starts here */
#define FRAMEDIFF_EXTRADATA_NAME    5

#endif /* AVCODEC_FRAMEDIFF_FRAMEDIFF_STREAM_H */
