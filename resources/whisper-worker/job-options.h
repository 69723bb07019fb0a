// What a job asks of whisper.cpp beyond the audio: voice activity detection and the guards against invented text,
// and the times VAD's cut makes (worker.cpp includes this after whisper.cpp, whose internals it reads).
#pragma once

#include "json.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace folio {

using json = nlohmann::ordered_json;

// Seconds with millisecond precision; NaN or infinity would be written as null.
inline double rounded(double v, double scale = 1000) {
    return std::isfinite(v) ? std::round(v * scale) / scale : 0;
}

// A time in the audio whisper decoded (the speech VAD kept, joined) as a time in the recording: whisper.cpp maps
// segment times itself but leaves token times in the joined audio.
inline int64_t recording_time(whisper_context * ctx, int64_t t) {
    const whisper_state * state = ctx->state;
    if (t < 0 || !state->has_vad_segments || state->vad_mapping_table.empty()) return t;
    return map_processed_to_original_time(t, state->vad_mapping_table);
}

// A number field of an object; absent or of another type reads as `fallback`.
inline double number(const json & obj, const char * key, double fallback) {
    if (!obj.is_object()) return fallback;
    auto it = obj.find(key);
    return it != obj.end() && it->is_number() ? it->get<double>() : fallback;
}

// whisper.cpp makes the VAD's context on first use with 4 threads, whose spinning barriers crawl on a machine with
// fewer free cores; the model is small enough that one thread is fastest, so the worker makes it first.
inline bool ensure_vad_context(whisper_context * ctx, const std::string & model) {
    if (ctx->state->vad_context) return true;
    whisper_vad_context_params params = whisper_vad_default_context_params();
    params.n_threads = 1;
    params.use_gpu = false;
    ctx->state->vad_context = whisper_vad_init_from_file_with_params(model.c_str(), params);
    return ctx->state->vad_context != nullptr;
}

// whisper.cpp's VAD with the job's thresholds, each left out at whisper-cli's default.
inline void set_vad(whisper_full_params & p, const json & vad, const std::string & model) {
    p.vad = true;
    p.vad_model_path = model.c_str();
    whisper_vad_params & v = p.vad_params;
    v = whisper_vad_default_params();
    v.threshold = (float) number(vad, "threshold", v.threshold);
    v.min_speech_duration_ms = (int) number(vad, "minSpeechMs", v.min_speech_duration_ms);
    v.min_silence_duration_ms = (int) number(vad, "minSilenceMs", v.min_silence_duration_ms);
    const double max_speech = number(vad, "maxSpeechS", 0);
    if (max_speech > 0) v.max_speech_duration_s = (float) max_speech;
    v.speech_pad_ms = (int) number(vad, "speechPadMs", v.speech_pad_ms);
    v.samples_overlap = (float) number(vad, "overlapS", v.samples_overlap);
}

// Whisper's guards against invented text (whisper-cli's defaults unless the job sets them): a window whose
// no-speech probability is above noSpeech while its tokens' mean log-probability is below logprob is dropped; a
// decode whose log-probability is below logprob, or whose text repeats (entropy below entropy), is tried again
// temperatureInc hotter, up to 1.0.
inline void set_guards(whisper_full_params & p, const json & guards) {
    p.no_speech_thold = (float) number(guards, "noSpeech", 0.6);
    p.entropy_thold = (float) number(guards, "entropy", 2.4);
    p.logprob_thold = (float) number(guards, "logprob", -1.0);
    p.temperature_inc = (float) number(guards, "temperatureInc", 0.2);
}

// The speech VAD found, in the recording's own seconds, and how much of the recording it left out.
inline json vad_summary(whisper_context * ctx, float duration) {
    json speech = json::array();
    double seconds = 0;
    if (ctx->state->has_vad_segments) { // without it, the list is the previous job's
        for (const auto & s : ctx->state->vad_segments) {
            speech.push_back({{"start", rounded(s.orig_start / 100.0)}, {"end", rounded(s.orig_end / 100.0)}});
            seconds += (s.orig_end - s.orig_start) / 100.0;
        }
    }
    return {{"speechSeconds", rounded(seconds)}, {"skippedSeconds", rounded(std::max(0.0, duration - seconds))},
            {"speech", speech}};
}

}  // namespace folio
