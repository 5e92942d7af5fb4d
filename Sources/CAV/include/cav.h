// CAV: the only code in NavReel that calls FFmpeg's libraries (libavformat, libavcodec,
// libswscale, libavutil), to read the frames of animated GIF and PNG files and of videos.
//
// The API is small on purpose: open a file, decode the next frame (its size and time come back
// first, so the caller checks them and allocates), copy it out as RGBA8, close. Every entry point
// returns a status code and fills a message; nothing here aborts or longjmps.
#ifndef NAVREEL_CAV_H
#define NAVREEL_CAV_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    NR_AV_OK = 0,
    NR_AV_END = 1,          ///< no more frames (not an error)
    NR_AV_ERR_OPEN = 2,     ///< the file could not be opened or is not a recognised container
    NR_AV_ERR_CODEC = 3,    ///< no supported video stream or codec
    NR_AV_ERR_DATA = 4,     ///< damaged or truncated data
    NR_AV_ERR_LIMIT = 5,    ///< a size limit was exceeded
    NR_AV_ERR_MEMORY = 6,   ///< allocation failed
    NR_AV_ERR_ARGUMENT = 7, ///< the caller passed something inconsistent
    NR_AV_ERR_UNAVAILABLE = 8, ///< FFmpeg's libraries could not be loaded (the message says which and how to install them)
};

typedef struct nr_av_limits {
    uint32_t max_width;
    uint32_t max_height;
    uint64_t max_pixels;      ///< width * height, also handed to the decoder before it allocates
    uint64_t max_file_bytes;
} nr_av_limits;

typedef struct nr_av_info {
    uint32_t width;           ///< as the container declares it, turned as shown (0 if it does not)
    uint32_t height;
    char container[32];       ///< demuxer name, e.g. "gif", "apng", "mov,mp4,m4a,3gp,3g2,mj2"
    char codec[32];           ///< e.g. "h264", "hevc", "gif", "apng"
    uint32_t video_tracks;    ///< how many video tracks the file has (1 for GIF and APNG)
    uint32_t track;           ///< which of them is read, counting from 1 in file order (FFmpeg's best stream)
    uint32_t map_index;       ///< the read stream's N in ffmpeg's `-map 0:v:N` (which counts cover art too)
    char turn[64];            ///< how the display matrix turns the stored picture ("" for not at all),
                              ///< e.g. "turned 90 degrees clockwise"; sizes and frames are as shown
    double duration;          ///< seconds, as the container's header declares them; -1 when it declares
                              ///< none, or FFmpeg only estimates them from the bit rate
} nr_av_info;

typedef struct nr_av_frame_info {
    uint32_t width;
    uint32_t height;
    double time;              ///< presentation time in seconds from the stream's start (-1 if unknown)
    double duration;          ///< seconds (0 if unknown)
} nr_av_frame_info;

typedef struct nr_av_reader nr_av_reader;

/// Opens `path` (a local file only: no other protocols, no external references), finds its
/// first video stream and opens a decoder for it. On success `*out` must be closed.
int nr_av_open(const char *path, const nr_av_limits *limits, nr_av_reader **out, nr_av_info *info,
               char *message, size_t message_capacity);

/// Decodes the next frame and describes it; NR_AV_END when there is none. A frame the decoder
/// marks as damaged is an error, not a frame.
int nr_av_next(nr_av_reader *reader, nr_av_frame_info *frame, char *message, size_t message_capacity);

/// Converts the frame `nr_av_next` described to RGBA8 (BT.601/709 and range as the stream
/// declares them), turned and mirrored as the stream's display matrix asks (nr_av_info.turn), as
/// players show it. `dst` must hold exactly width * height * 4 bytes of that frame.
int nr_av_copy_rgba(nr_av_reader *reader, uint8_t *dst, size_t dst_size, char *message, size_t message_capacity);

void nr_av_close(nr_av_reader *reader);

/// FFmpeg is loaded with dlopen when the first file is opened (so that start-up does not pay for
/// it), from the loader's search path or, if set, only from the folder NAVREEL_FFMPEG_LIB_DIR.
/// This tries loading it from `dir` (NULL: the usual search) without keeping it, for tests and
/// diagnostics: NR_AV_OK, or NR_AV_ERR_UNAVAILABLE with the message nr_av_open would give.
int nr_av_probe(const char *dir, char *message, size_t message_capacity);

#ifdef __cplusplus
}
#endif

#endif
