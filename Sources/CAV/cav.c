// CAV: FFmpeg behind a small C API (see include/cav.h). Sizes are checked before anything is
// allocated for them: the container's declared size against the limits, the decoder told the
// largest frame it may allocate (AVCodecContext.max_pixels), every decoded frame checked again.
#include "cav.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#include <dlfcn.h>
#include <math.h>
#include <stddef.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

// FFmpeg is loaded with dlopen on first use, not linked: linking it made the dynamic loader map
// and relocate about 150 libraries (FFmpeg's codecs and their dependencies) at every start of
// `navreel`, some 50 ms, though only `compare` of a GIF, APNG or video needs them. The headers
// still give the types and the major versions, so the sonames loaded are the ones compiled
// against (the ABI is stable within a major version).
#define NR_STR2(x) #x
#define NR_STR(x) NR_STR2(x)

// avformat_index_get_entries_count arrived in libavformat 58.78 (FFmpeg 4.4); built against
// older headers, a recording cut at a frame's edge is not detected (nr_av_next).
#if LIBAVFORMAT_VERSION_INT >= AV_VERSION_INT(58, 78, 100)
#define NR_AV_HAS_INDEX_COUNT 1
#define NR_AV_INDEX_COUNT(X) X(avformat, avformat_index_get_entries_count)
#else
#define NR_AV_HAS_INDEX_COUNT 0
#define NR_AV_INDEX_COUNT(X)
#endif

// Every FFmpeg function cav.c calls, with its type taken from the headers.
#define NR_AV_FUNCTIONS(X) \
    X(avutil, av_log_set_level) X(avutil, av_log_set_callback) X(avutil, av_strerror) X(avutil, av_free) \
    X(avutil, av_freep) X(avutil, av_malloc) X(avutil, av_mallocz) X(avutil, av_dict_set) X(avutil, av_dict_free) \
    X(avutil, av_frame_alloc) X(avutil, av_frame_free) X(avutil, av_frame_unref) X(avutil, av_pix_fmt_desc_get) \
    X(avutil, av_get_pix_fmt_name) \
    X(avcodec, av_packet_alloc) X(avcodec, av_packet_free) X(avcodec, av_packet_unref) X(avcodec, avcodec_free_context) \
    X(avcodec, avcodec_get_name) X(avcodec, avcodec_alloc_context3) X(avcodec, avcodec_parameters_to_context) \
    X(avcodec, avcodec_open2) X(avcodec, avcodec_receive_frame) X(avcodec, avcodec_send_packet) \
    X(avformat, avformat_open_input) X(avformat, avformat_close_input) X(avformat, avformat_find_stream_info) \
    X(avformat, av_find_best_stream) X(avformat, av_read_frame) NR_AV_INDEX_COUNT(X) \
    X(avcodec, avcodec_version) \
    X(swscale, sws_freeContext) X(swscale, sws_getCachedContext) X(swscale, sws_setColorspaceDetails) \
    X(swscale, sws_getCoefficients) X(swscale, sws_scale)

struct nr_av_api {
#define NR_FIELD(lib, name) __typeof__(name) *name;
    NR_AV_FUNCTIONS(NR_FIELD)
#undef NR_FIELD
    void *handles[4];
};

enum { NR_LIB_avutil, NR_LIB_avcodec, NR_LIB_avformat, NR_LIB_swscale };

// The libraries in dependency order, by the major versions of the headers compiled against.
static const struct { const char *stem; const char *major; } nr_libs[4] = {
    {"libavutil", NR_STR(LIBAVUTIL_VERSION_MAJOR)},
    {"libavcodec", NR_STR(LIBAVCODEC_VERSION_MAJOR)},
    {"libavformat", NR_STR(LIBAVFORMAT_VERSION_MAJOR)},
    {"libswscale", NR_STR(LIBSWSCALE_VERSION_MAJOR)},
};

static void nr_av_unload(struct nr_av_api *api) {
    for (int i = 3; i >= 0; i--) {
        if (api->handles[i]) dlclose(api->handles[i]);
        api->handles[i] = NULL;
    }
}

// Opens one library: from `dir` when given (only there), else by soname through the loader's
// search path, then (macOS) Homebrew's and MacPorts' library folders.
static void *nr_av_open_library(int index, const char *dir, char *tried, size_t tried_capacity) {
    char name[64];
#ifdef __APPLE__
    snprintf(name, sizeof name, "%s.%s.dylib", nr_libs[index].stem, nr_libs[index].major);
    const char *dirs[] = {NULL, "/opt/homebrew/lib", "/usr/local/lib", "/opt/local/lib"};
#else
    snprintf(name, sizeof name, "%s.so.%s", nr_libs[index].stem, nr_libs[index].major);
    const char *dirs[] = {NULL};
#endif
    if (dir) {
        dirs[0] = dir;
        for (size_t i = 1; i < sizeof dirs / sizeof dirs[0]; i++) dirs[i] = NULL;
    }
    const char *last_error = "";
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        if (i > 0 && !dirs[i]) continue;
        char path[1024];
        if (dirs[i]) snprintf(path, sizeof path, "%s/%s", dirs[i], name);
        else snprintf(path, sizeof path, "%s", name);
        void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (handle) return handle;
        const char *e = dlerror();
        last_error = e ? e : "not found";
    }
    snprintf(tried, tried_capacity, "%s", last_error);
    return NULL;
}

// Loads the four libraries and every function into `api`; on failure nothing stays loaded and
// `message` says which library or function is missing and how to install FFmpeg.
static int nr_av_load(struct nr_av_api *api, const char *dir, char *message, size_t capacity) {
    memset(api, 0, sizeof *api);
    char why[512] = "";
    for (int i = 0; i < 4; i++) {
        api->handles[i] = nr_av_open_library(i, dir, why, sizeof why);
        if (!api->handles[i]) {
            nr_av_unload(api);
            if (message && capacity)
                snprintf(message, capacity,
                         "FFmpeg's libraries, needed to read animations and videos, could not be loaded (%s); "
                         "install FFmpeg with %s major version %s "
#ifdef __APPLE__
                         "(brew install ffmpeg), or set NAVREEL_FFMPEG_LIB_DIR to the folder holding it",
#else
                         "(Debian and Ubuntu: apt-get install ffmpeg), or set NAVREEL_FFMPEG_LIB_DIR to the folder holding it",
#endif
                         why, nr_libs[i].stem, nr_libs[i].major);
            return NR_AV_ERR_UNAVAILABLE;
        }
    }
#define NR_LOAD(lib, fn)                                                                                       \
    api->fn = (__typeof__(fn) *)dlsym(api->handles[NR_LIB_##lib], #fn);                                       \
    if (!api->fn) {                                                                                            \
        if (message && capacity)                                                                               \
            snprintf(message, capacity, "FFmpeg's lib%s has no function %s: not the FFmpeg NavReel was built with", \
                     #lib, #fn);                                                                               \
        nr_av_unload(api);                                                                                     \
        return NR_AV_ERR_UNAVAILABLE;                                                                          \
    }
    NR_AV_FUNCTIONS(NR_LOAD)
#undef NR_LOAD
    return NR_AV_OK;
}

static struct nr_av_api nr_api;
static int nr_api_status = NR_AV_ERR_UNAVAILABLE;
static char nr_api_message[640];

int nr_av_probe(const char *dir, char *message, size_t capacity) {
    struct nr_av_api api;
    int status = nr_av_load(&api, dir, message, capacity);
    if (status == NR_AV_OK) nr_av_unload(&api);
    return status;
}

struct nr_av_reader {
    AVFormatContext *format;
    AVCodecContext *codec;
    AVPacket *packet;
    AVFrame *frame;
    struct SwsContext *sws;
    uint8_t *rgba;          // converted frame, `rgba_stride` bytes a row (aligned for swscale)
    size_t rgba_capacity;
    int rgba_stride;
    int stream;
    int flushed;            // the decoder has been sent the end of the stream
    int has_frame;          // `frame` holds the frame nr_av_next described
    int64_t first_pts;      // of the first frame, when the stream declares no start time
    int turn[4];            // the display matrix as a quarter turn and mirroring (see quarter_turn)
    long frames;
    long packets;           // of the video stream, read so far
    nr_av_limits limits;
};

// FFmpeg reports details (e.g. "partial file") only through its log. Keep the last error line of
// this thread so messages can say what went wrong; never print.
static _Thread_local char last_log[200];

static void log_callback(void *avcl, int level, const char *fmt, va_list args) {
    (void)avcl;
    if (level > AV_LOG_ERROR) return;
    char line[sizeof last_log];
    vsnprintf(line, sizeof line, fmt, args);
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == ' ')) line[--n] = 0;
    if (n > 0) memcpy(last_log, line, n + 1);
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static void setup(void) {
    const char *dir = getenv("NAVREEL_FFMPEG_LIB_DIR");
    nr_api_status = nr_av_load(&nr_api, dir && dir[0] ? dir : NULL, nr_api_message, sizeof nr_api_message);
    if (nr_api_status != NR_AV_OK) return;
    nr_api.av_log_set_level(AV_LOG_ERROR);
    nr_api.av_log_set_callback(log_callback);
}

static int fail(int status, char *message, size_t capacity, int averror, const char *fmt, ...) {
    if (message && capacity) {
        char what[256];
        va_list args;
        va_start(args, fmt);
        vsnprintf(what, sizeof what, fmt, args);
        va_end(args);
        char reason[128] = "";
        if (averror < 0 && nr_api.av_strerror) nr_api.av_strerror(averror, reason, sizeof reason);
        const char *sep1 = reason[0] ? ": " : "", *sep2 = last_log[0] ? " (" : "", *end = last_log[0] ? ")" : "";
        snprintf(message, capacity, "%s%s%s%s%s%s", what, sep1, reason, sep2, last_log, end);
    }
    return status;
}

// GIF and APNG demuxers stop quietly at the end of the data, so a cut file would look like a
// shorter animation. Their formats end with a fixed marker: a GIF with the trailer byte 0x3B
// (GIF89a specification, section 27), a PNG with the IEND chunk (PNG specification, 11.2.5).
static int has_end_marker(const char *path, const char *container) {
    int gif = strcmp(container, "gif") == 0, png = strcmp(container, "apng") == 0 || strcmp(container, "png_pipe") == 0;
    if (!gif && !png) return 1;
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    unsigned char tail[12] = {0};
    int ok = fseek(f, -12, SEEK_END) == 0 && fread(tail, 1, 12, f) == 12;
    fclose(f);
    if (!ok) return 0;
    if (gif) return tail[11] == 0x3B;
    return memcmp(tail + 4, "IEND", 4) == 0;
}

static int codec_supported(enum AVCodecID id) {
    return id == AV_CODEC_ID_H264 || id == AV_CODEC_ID_HEVC || id == AV_CODEC_ID_GIF || id == AV_CODEC_ID_APNG ||
           id == AV_CODEC_ID_PNG;
}

static int size_ok(const nr_av_limits *l, int64_t w, int64_t h) {
    return w > 0 && h > 0 && w <= l->max_width && h <= l->max_height && (uint64_t)w * (uint64_t)h <= l->max_pixels;
}

// The stream's display matrix (ISO/IEC 14496-12 8.3.2, a track header's `matrix`; FFmpeg's mov
// demuxer exports it as AV_PKT_DATA_DISPLAYMATRIX), or NULL. Players show a video turned by it:
// an iPhone's portrait camera video is stored sideways with a quarter turn here, and QuickTime,
// browsers and FFmpeg's own command line (autorotate) all turn it upright.
static const int32_t *display_matrix(const AVStream *stream) {
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 30, 100)
    // AVCodecParameters.coded_side_data arrived in libavcodec 60.30.100 (FFmpeg 6.1), appended to
    // the struct. The libraries are loaded by major version, so a 6.0 libavcodec (also major 60)
    // could be the one running: its struct ends before these fields, so ask its version first.
    if (nr_api.avcodec_version() >= AV_VERSION_INT(60, 30, 100)) {
        const AVCodecParameters *par = stream->codecpar;
        for (int i = 0; i < par->nb_coded_side_data; i++)
            if (par->coded_side_data[i].type == AV_PKT_DATA_DISPLAYMATRIX && par->coded_side_data[i].size >= 9 * sizeof(int32_t))
                return (const int32_t *)par->coded_side_data[i].data;
        return NULL;
    }
#endif
#if LIBAVFORMAT_VERSION_MAJOR < 61
    // AVStream.side_data, which FFmpeg 7 (libavformat 61) removed.
    for (int i = 0; i < stream->nb_side_data; i++)
        if (stream->side_data[i].type == AV_PKT_DATA_DISPLAYMATRIX && stream->side_data[i].size >= 9 * sizeof(int32_t))
            return (const int32_t *)stream->side_data[i].data;
#endif
    return NULL;
}

// The display matrix m (libavutil/display.h: a pixel (x, y) is shown at x' = a x + c y + tx,
// y' = b x + d y + ty, with a = m[0], b = m[1], c = m[3], d = m[4] in 16.16 fixed point) as a
// signed permutation t = {a, b, c, d}, each -1, 0 or 1: the identity, a quarter turn, a half
// turn, or any of them mirrored. The translation only places the picture, so it is left out;
// each column is divided by its length as av_display_rotation_get does (libavutil/display.c),
// so a scaled matrix turns as it would unscaled, and an entry within a degree's sine of 0 or 1
// counts as 0 or 1 (FFmpeg's autorotate takes angles within 1 degree of a quarter turn,
// fftools/ffmpeg_filter.c). For all eight such matrices the result is the picture FFmpeg 5.1's
// command line shows (checked frame by frame on the bundled recording with each matrix written
// into its track header). A matrix with a zero column turns nothing, as in FFmpeg. Returns 0,
// or -1 for a turn that is not a multiple of 90 degrees, with its angle in `*degrees`
// (counterclockwise, av_display_rotation_get's convention).
static int quarter_turn(const int32_t *m, int t[4], double *degrees) {
    t[0] = 1; t[1] = 0; t[2] = 0; t[3] = 1;
    *degrees = 0;
    if (!m) return 0;
    double a = m[0] / 65536.0, b = m[1] / 65536.0, c = m[3] / 65536.0, d = m[4] / 65536.0;
    double sx = hypot(a, c), sy = hypot(b, d);
    if (!(sx > 0) || !(sy > 0) || !isfinite(sx) || !isfinite(sy)) return 0;
    double v[4] = {a / sx, b / sy, c / sx, d / sy};
    const double near0 = 0.0175, near1 = 0.9998; // sin and cos of 1 degree
    int u[4];
    for (int i = 0; i < 4; i++) {
        if (fabs(v[i]) < near0) u[i] = 0;
        else if (fabs(v[i]) > near1) u[i] = v[i] > 0 ? 1 : -1;
        else u[i] = 2;
    }
    int straight = u[0] != 0 && u[0] != 2 && u[3] != 0 && u[3] != 2 && u[1] == 0 && u[2] == 0;
    int across = u[1] != 0 && u[1] != 2 && u[2] != 0 && u[2] != 2 && u[0] == 0 && u[3] == 0;
    if (!straight && !across) {
        *degrees = -atan2(v[1], v[0]) * 180.0 / M_PI;
        return -1;
    }
    for (int i = 0; i < 4; i++) t[i] = u[i];
    return 0;
}

// What the turn does, in words, for messages ("" for none).
static void describe_turn(const int t[4], char *out, size_t capacity) {
    const char *what = "";
    if (t[0] == 1 && t[3] == 1) what = "";
    else if (t[0] == -1 && t[3] == -1) what = "turned 180 degrees";
    else if (t[0] == -1 && t[3] == 1) what = "mirrored left to right";
    else if (t[0] == 1 && t[3] == -1) what = "mirrored top to bottom";
    else if (t[1] == 1 && t[2] == -1) what = "turned 90 degrees clockwise";
    else if (t[1] == -1 && t[2] == 1) what = "turned 90 degrees counterclockwise";
    else if (t[1] == 1 && t[2] == 1) what = "turned 90 degrees clockwise and mirrored left to right";
    else if (t[1] == -1 && t[2] == -1) what = "turned 90 degrees clockwise and mirrored top to bottom";
    snprintf(out, capacity, "%s", what);
}

// The shown size of a stored w x h picture.
static void turned_size(const int t[4], int w, int h, int *tw, int *th) {
    *tw = t[0] != 0 ? w : h;
    *th = t[0] != 0 ? h : w;
}

void nr_av_close(nr_av_reader *r) {
    if (!r) return;
    nr_api.sws_freeContext(r->sws);
    nr_api.av_free(r->rgba);
    nr_api.av_frame_free(&r->frame);
    nr_api.av_packet_free(&r->packet);
    nr_api.avcodec_free_context(&r->codec);
    nr_api.avformat_close_input(&r->format);
    nr_api.av_free(r);
}

int nr_av_open(const char *path, const nr_av_limits *limits, nr_av_reader **out, nr_av_info *info,
               char *message, size_t capacity) {
    pthread_once(&once, setup);
    last_log[0] = 0;
    if (!path || !limits || !out || !info) return fail(NR_AV_ERR_ARGUMENT, message, capacity, 0, "bad arguments");
    *out = NULL;
    if (nr_api_status != NR_AV_OK) return fail(nr_api_status, message, capacity, 0, "%s", nr_api_message);
    memset(info, 0, sizeof *info);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return fail(NR_AV_ERR_OPEN, message, capacity, 0, "not a readable file");
    if (st.st_size == 0) return fail(NR_AV_ERR_DATA, message, capacity, 0, "the file is empty (0 bytes)");
    if ((uint64_t)st.st_size > limits->max_file_bytes)
        return fail(NR_AV_ERR_LIMIT, message, capacity, 0, "the file has %lld bytes, more than the limit of %llu",
                    (long long)st.st_size, (unsigned long long)limits->max_file_bytes);

    nr_av_reader *r = nr_api.av_mallocz(sizeof *r);
    if (!r) return fail(NR_AV_ERR_MEMORY, message, capacity, 0, "out of memory");
    r->limits = *limits;
    r->first_pts = AV_NOPTS_VALUE;

    // Local files only ("file:" so that a colon in a name is not read as a protocol), and only
    // the containers NavReel reads: no playlists, no network, no references to other files.
    size_t url_len = strlen(path) + 6;
    char *url = nr_api.av_malloc(url_len);
    if (!url) { nr_av_close(r); return fail(NR_AV_ERR_MEMORY, message, capacity, 0, "out of memory"); }
    snprintf(url, url_len, "file:%s", path);
    AVDictionary *options = NULL;
    nr_api.av_dict_set(&options, "protocol_whitelist", "file", 0);
    nr_api.av_dict_set(&options, "format_whitelist", "gif,apng,mov,png_pipe", 0);
    int ret = nr_api.avformat_open_input(&r->format, url, NULL, &options);
    nr_api.av_dict_free(&options);
    nr_api.av_free(url);
    if (ret < 0) {
        nr_av_close(r);
        // A file that begins as QuickTime/MP4 does (ISO/IEC 14496-12 4.2: a box's size, then its
        // type). FFmpeg takes any file named .mp4 or .mov for one and then misses its index, so
        // only a file that begins so is told its index is missing or damaged.
        FILE *f = fopen(path, "rb");
        unsigned char head[8] = {0};
        int boxed = f && fread(head, 1, 8, f) == 8 &&
                    (!memcmp(head + 4, "ftyp", 4) || !memcmp(head + 4, "moov", 4) || !memcmp(head + 4, "mdat", 4) ||
                     !memcmp(head + 4, "wide", 4) || !memcmp(head + 4, "free", 4));
        if (f) fclose(f);
        // QuickTime and MP4 files get their index (the moov box) when the recording stops: a
        // recorder killed before that, or a copy made while it was still writing, has none.
        if (boxed && strstr(last_log, "moov atom not found")) {
            last_log[0] = 0;
            return fail(NR_AV_ERR_DATA, message, capacity, 0,
                        "no index (moov box): a QuickTime/MP4 recording that was never finished (stop `simctl io "
                        "recordVideo` with Ctrl-C or kill -INT, and wait for it to exit) or a copy cut short");
        }
        if (boxed)
            return fail(NR_AV_ERR_DATA, message, capacity, ret, "a QuickTime/MP4 file whose index (moov box) is damaged or cut short");
        last_log[0] = 0;
        return fail(NR_AV_ERR_OPEN, message, capacity, ret, "not a GIF, APNG or QuickTime/MP4 file NavReel can read");
    }
    snprintf(info->container, sizeof info->container, "%s", r->format->iformat->name);
    if (!has_end_marker(path, info->container)) {
        nr_av_close(r);
        return fail(NR_AV_ERR_DATA, message, capacity, 0, "truncated: the %s data does not end with its end marker",
                    strcmp(info->container, "gif") == 0 ? "GIF" : "PNG");
    }
    ret = nr_api.avformat_find_stream_info(r->format, NULL);
    if (ret < 0) { nr_av_close(r); return fail(NR_AV_ERR_DATA, message, capacity, ret, "cannot read the streams"); }
    // What the header declares (QuickTime's mvhd, the streams' durations, a GIF's delays read
    // while probing); a figure guessed from the file size and bit rate is no declaration.
    info->duration = r->format->duration != AV_NOPTS_VALUE && r->format->duration > 0 &&
                             r->format->duration_estimation_method != AVFMT_DURATION_FROM_BITRATE
                         ? (double)r->format->duration / AV_TIME_BASE
                         : -1;

    const AVCodec *decoder = NULL;
    ret = nr_api.av_find_best_stream(r->format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
    if (ret == AVERROR_DECODER_NOT_FOUND) {
        // A video stream exists but this FFmpeg has no decoder for it.
        for (unsigned i = 0; i < r->format->nb_streams; i++) {
            AVCodecParameters *p = r->format->streams[i]->codecpar;
            if (p->codec_type == AVMEDIA_TYPE_VIDEO) {
                snprintf(info->codec, sizeof info->codec, "%s", nr_api.avcodec_get_name(p->codec_id));
                break;
            }
        }
        nr_av_close(r);
        if (strcmp(info->codec, "none") == 0)
            return fail(NR_AV_ERR_DATA, message, capacity, 0, "its video stream names no codec: truncated or damaged");
        return fail(NR_AV_ERR_CODEC, message, capacity, 0, "this FFmpeg has no decoder for %s video", info->codec);
    }
    if (ret < 0) {
        unsigned tracks = r->format->nb_streams;
        nr_av_close(r);
        if (tracks == 0)
            return fail(NR_AV_ERR_DATA, message, capacity, 0, "no tracks at all: its index is cut short or damaged");
        if (tracks == 1)
            return fail(NR_AV_ERR_CODEC, message, capacity, 0, "no video stream: its one track is audio or data (or its "
                        "index is cut short)");
        return fail(NR_AV_ERR_CODEC, message, capacity, 0, "no video stream: none of its %u tracks is video (or its index is "
                    "cut short)", tracks);
    }
    r->stream = ret;
    for (unsigned i = 0, video_streams = 0; i < r->format->nb_streams; i++) {
        if (r->format->streams[i]->codecpar->codec_type != AVMEDIA_TYPE_VIDEO) continue;
        // ffmpeg's `-map 0:v:N` counts every video stream, cover art included.
        if ((int)i == ret) info->map_index = video_streams;
        video_streams++;
        // Cover art and QuickTime chapter images are video streams of one picture, not tracks.
        if (r->format->streams[i]->disposition & AV_DISPOSITION_ATTACHED_PIC) continue;
        info->video_tracks++;
        if ((int)i == ret) info->track = info->video_tracks;
    }
    AVStream *stream = r->format->streams[ret];
    AVCodecParameters *par = stream->codecpar;
    snprintf(info->codec, sizeof info->codec, "%s", nr_api.avcodec_get_name(par->codec_id));
    if (!codec_supported(par->codec_id)) {
        nr_av_close(r);
        return fail(NR_AV_ERR_CODEC, message, capacity, 0, "%s video is not supported (NavReel reads H.264, HEVC, GIF and APNG)",
                    info->codec);
    }
    double degrees = 0;
    if (quarter_turn(display_matrix(stream), r->turn, &degrees) != 0) {
        nr_av_close(r);
        return fail(NR_AV_ERR_CODEC, message, capacity, 0,
                    "its display matrix turns the picture %.1f degrees %s (ffprobe's \"rotation\": %d); NavReel shows "
                    "videos turned by quarter turns or mirrored as their matrix asks, and no other angle",
                    fabs(degrees), degrees < 0 ? "clockwise" : "counterclockwise", (int)degrees);
    }
    describe_turn(r->turn, info->turn, sizeof info->turn);
    int declared_w = 0, declared_h = 0;
    turned_size(r->turn, par->width, par->height, &declared_w, &declared_h);
    info->width = declared_w > 0 ? (uint32_t)declared_w : 0;
    info->height = declared_h > 0 ? (uint32_t)declared_h : 0;
    if (declared_w > 0 && declared_h > 0 && !size_ok(limits, declared_w, declared_h)) {
        nr_av_close(r); // frees `par`: only the copies above are used from here
        return fail(NR_AV_ERR_LIMIT, message, capacity, 0, "declared frame size %dx%d is over the limit (%ux%u, %llu pixels)",
                    declared_w, declared_h, limits->max_width, limits->max_height, (unsigned long long)limits->max_pixels);
    }

    r->codec = nr_api.avcodec_alloc_context3(decoder);
    if (!r->codec) { nr_av_close(r); return fail(NR_AV_ERR_MEMORY, message, capacity, 0, "out of memory"); }
    ret = nr_api.avcodec_parameters_to_context(r->codec, par);
    if (ret < 0) { nr_av_close(r); return fail(NR_AV_ERR_DATA, message, capacity, ret, "bad codec parameters"); }
    r->codec->max_pixels = (int64_t)(limits->max_pixels > INT64_MAX ? INT64_MAX : limits->max_pixels);
    r->codec->thread_count = 1;              // same frames either way; one thread keeps memory small
    r->codec->err_recognition |= AV_EF_EXPLODE; // damaged data is an error, not a concealed frame
    r->codec->pkt_timebase = stream->time_base;
    ret = nr_api.avcodec_open2(r->codec, decoder, NULL);
    if (ret < 0) { nr_av_close(r); return fail(NR_AV_ERR_CODEC, message, capacity, ret, "cannot open the %s decoder", info->codec); }
    r->packet = nr_api.av_packet_alloc();
    r->frame = nr_api.av_frame_alloc();
    if (!r->packet || !r->frame) { nr_av_close(r); return fail(NR_AV_ERR_MEMORY, message, capacity, 0, "out of memory"); }
    *out = r;
    return NR_AV_OK;
}

int nr_av_next(nr_av_reader *r, nr_av_frame_info *f, char *message, size_t capacity) {
    if (!r || !f) return fail(NR_AV_ERR_ARGUMENT, message, capacity, 0, "bad arguments");
    last_log[0] = 0;
    r->has_frame = 0;
    nr_api.av_frame_unref(r->frame);
    for (;;) {
        int ret = nr_api.avcodec_receive_frame(r->codec, r->frame);
        if (ret == AVERROR_EOF) return NR_AV_END;
        if (ret == 0) break;
        if (ret != AVERROR(EAGAIN)) return fail(NR_AV_ERR_DATA, message, capacity, ret, "frame %ld cannot be decoded", r->frames);
        if (r->flushed) return NR_AV_END;
        ret = nr_api.av_read_frame(r->format, r->packet);
        if (ret == AVERROR_EOF) {
            // A QuickTime/MP4 file cut at a packet's edge reads as a shorter one: the demuxer's
            // index, built from the moov box before any data is read, lists every packet it will
            // return. Not the stream's nb_frames (the sample table's count): an edit list that
            // trims the media drops samples from the index, so a whole file reads fewer packets
            // than that (a review's files: 30 samples, 16 packets). Fragmented files index their
            // fragments as they reach them and are not checked this way.
#if NR_AV_HAS_INDEX_COUNT
            int64_t listed = strncmp(r->format->iformat->name, "mov,", 4) == 0
                                 ? nr_api.avformat_index_get_entries_count(r->format->streams[r->stream]) : 0;
#else
            int64_t listed = 0;
#endif
            if (listed > 0 && r->packets < listed)
                return fail(NR_AV_ERR_DATA, message, capacity, 0,
                            "cut short: its index lists %lld frames and the data ends after %ld of them",
                            (long long)listed, r->packets);
            r->flushed = 1;
            ret = nr_api.avcodec_send_packet(r->codec, NULL);
            if (ret < 0 && ret != AVERROR_EOF) return fail(NR_AV_ERR_DATA, message, capacity, ret, "cannot finish decoding");
            continue;
        }
        if (ret < 0) return fail(NR_AV_ERR_DATA, message, capacity, ret, "damaged or cut-short data (after %ld decoded frames)", r->frames);
        if (r->packet->stream_index != r->stream) { nr_api.av_packet_unref(r->packet); continue; }
        r->packets++;
        if (r->packet->flags & AV_PKT_FLAG_CORRUPT) {
            nr_api.av_packet_unref(r->packet);
            return fail(NR_AV_ERR_DATA, message, capacity, 0, "damaged or cut-short data (after %ld decoded frames)", r->frames);
        }
        ret = nr_api.avcodec_send_packet(r->codec, r->packet);
        nr_api.av_packet_unref(r->packet);
        if (ret < 0 && ret != AVERROR(EAGAIN))
            return fail(NR_AV_ERR_DATA, message, capacity, ret, "frame %ld cannot be decoded", r->frames);
    }
    // Some decoders (GIF's LZW) log damaged data and still return a frame: any error logged while
    // decoding it makes the frame damaged.
    if (r->frame->decode_error_flags || (r->frame->flags & AV_FRAME_FLAG_CORRUPT) || last_log[0])
        return fail(NR_AV_ERR_DATA, message, capacity, 0, "frame %ld is damaged", r->frames);
    int shown_w = 0, shown_h = 0;
    turned_size(r->turn, r->frame->width, r->frame->height, &shown_w, &shown_h);
    if (!size_ok(&r->limits, shown_w, shown_h))
        return fail(NR_AV_ERR_LIMIT, message, capacity, 0, "frame %ld is %dx%d, over the limit", r->frames, shown_w, shown_h);
    AVStream *stream = r->format->streams[r->stream];
    double tb = av_q2d(stream->time_base);
    int64_t pts = r->frame->best_effort_timestamp;
    if (pts != AV_NOPTS_VALUE && r->first_pts == AV_NOPTS_VALUE) r->first_pts = pts;
    int64_t start = stream->start_time != AV_NOPTS_VALUE ? stream->start_time : r->first_pts;
    f->width = (uint32_t)shown_w;
    f->height = (uint32_t)shown_h;
    f->time = (pts != AV_NOPTS_VALUE && start != AV_NOPTS_VALUE) ? (double)(pts - start) * tb : -1;
#if LIBAVUTIL_VERSION_MAJOR >= 58
    int64_t duration = r->frame->duration;
#else
    int64_t duration = r->frame->pkt_duration;
#endif
    f->duration = duration > 0 ? (double)duration * tb : 0;
    r->frames++;
    r->has_frame = 1;
    return NR_AV_OK;
}

int nr_av_copy_rgba(nr_av_reader *r, uint8_t *dst, size_t dst_size, char *message, size_t capacity) {
    if (!r || !dst || !r->has_frame) return fail(NR_AV_ERR_ARGUMENT, message, capacity, 0, "no decoded frame");
    AVFrame *frame = r->frame;
    int w = frame->width, h = frame->height;
    size_t row = (size_t)w * 4;
    if (w <= 0 || h <= 0 || dst_size != row * (size_t)h) return fail(NR_AV_ERR_ARGUMENT, message, capacity, 0, "the buffer does not fit the frame");
    // Rows aligned for swscale's vector code, so it never writes past a row of `dst`.
    int stride = (int)((row + 63) & ~(size_t)63);
    size_t needed = (size_t)stride * (size_t)h;
    if (needed > r->rgba_capacity) {
        nr_api.av_freep(&r->rgba);
        r->rgba_capacity = 0;
        r->rgba = nr_api.av_malloc(needed + 64);
        if (!r->rgba) return fail(NR_AV_ERR_MEMORY, message, capacity, 0, "out of memory");
        r->rgba_capacity = needed;
    }
    r->rgba_stride = stride;
    // Bit-exact, accurately rounded conversion: the same bytes on every machine.
    int flags = SWS_BILINEAR | SWS_ACCURATE_RND | SWS_BITEXACT | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP;
    r->sws = nr_api.sws_getCachedContext(r->sws, w, h, frame->format, w, h, AV_PIX_FMT_RGBA, flags, NULL, NULL, NULL);
    if (!r->sws) return fail(NR_AV_ERR_CODEC, message, capacity, 0, "cannot convert %s pixels", nr_api.av_get_pix_fmt_name(frame->format));
    const AVPixFmtDescriptor *desc = nr_api.av_pix_fmt_desc_get(frame->format);
    if (desc && !(desc->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL))) {
        // YUV: the matrix and range the stream declares (BT.601 when it declares none, as FFmpeg).
        int cs = frame->colorspace == AVCOL_SPC_UNSPECIFIED || frame->colorspace == AVCOL_SPC_RGB ? SWS_CS_DEFAULT : (int)frame->colorspace;
        int full = frame->color_range == AVCOL_RANGE_JPEG || frame->format == AV_PIX_FMT_YUVJ420P ||
                   frame->format == AV_PIX_FMT_YUVJ422P || frame->format == AV_PIX_FMT_YUVJ444P;
        nr_api.sws_setColorspaceDetails(r->sws, nr_api.sws_getCoefficients(cs), full, nr_api.sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16);
    }
    uint8_t *planes[4] = {r->rgba, NULL, NULL, NULL};
    int strides[4] = {stride, 0, 0, 0};
    int lines = nr_api.sws_scale(r->sws, (const uint8_t *const *)frame->data, frame->linesize, 0, h, planes, strides);
    if (lines != h) return fail(NR_AV_ERR_DATA, message, capacity, 0, "pixel conversion failed");
    const int *t = r->turn;
    if (t[0] == 1 && t[3] == 1) {
        for (int y = 0; y < h; y++) memcpy(dst + (size_t)y * row, r->rgba + (size_t)y * (size_t)stride, row);
        return NR_AV_OK;
    }
    // Turned or mirrored: pixel (x, y) goes to (a x + c y + ox, b x + d y + oy) of the shown
    // picture (quarter_turn), where the offsets put the picture at the origin. A signed
    // permutation maps the w x h rectangle onto the tw x th one exactly, so every index below lies
    // within `dst` (dst_size is w * h * 4 = tw * th * 4, checked above).
    int tw = 0, th = 0;
    turned_size(t, w, h, &tw, &th);
    ptrdiff_t ox = (t[0] < 0 ? w - 1 : 0) + (t[2] < 0 ? h - 1 : 0);
    ptrdiff_t oy = (t[1] < 0 ? w - 1 : 0) + (t[3] < 0 ? h - 1 : 0);
    ptrdiff_t step = (ptrdiff_t)t[1] * tw + t[0]; // in pixels of dst, for x + 1
    // Each row's pixels run in a straight line, so the four corners bound every index: check them
    // rather than trust the arithmetic above.
    for (int corner = 0; corner < 4; corner++) {
        ptrdiff_t x = corner & 1 ? w - 1 : 0, y = corner & 2 ? h - 1 : 0;
        ptrdiff_t X = t[0] * x + t[2] * y + ox, Y = t[1] * x + t[3] * y + oy;
        if (X < 0 || X >= tw || Y < 0 || Y >= th) return fail(NR_AV_ERR_ARGUMENT, message, capacity, 0, "turning the frame went wrong");
    }
    for (int y = 0; y < h; y++) {
        const uint8_t *src = r->rgba + (size_t)y * (size_t)stride;
        ptrdiff_t at = ((ptrdiff_t)t[3] * y + oy) * tw + (ptrdiff_t)t[2] * y + ox;
        for (int x = 0; x < w; x++, at += step) memcpy(dst + at * 4, src + (size_t)x * 4, 4);
    }
    return NR_AV_OK;
}
