// Folio whisper worker: loads one ggml Whisper model once, then serves transcription jobs.
//
// Usage: folio-whisper-worker --model <path> [--threads N] [--dtw <preset: tiny.en, base, ..., large-v3>]
//                             [--device auto|cpu|gpu] [--modules <dir with the ggml backend modules>]
//                             [--vad-model <Silero VAD file; default silero-vad-v5.ggml in the modules folder>]
// stdin : one JSON object per line
//   {"cmd":"transcribe","id":"j1","pcm":"/tmp/x.f32","language":"en","prompt":"...","threads":2,
//    "task":"transcribe"|"translate",
//    "vad":{"threshold":0.5,"minSpeechMs":250,"minSilenceMs":100,"maxSpeechS":0,"speechPadMs":30,"overlapS":0.1},
//    "guards":{"noSpeech":0.6,"entropy":2.4,"logprob":-1,"temperatureInc":0.2},"noTimestamps":false}
//   (vad absent: no voice activity detection; a field left out takes whisper.cpp's CLI default; maxSpeechS 0: no limit)
//   {"cmd":"cancel","id":"j1"}   {"cmd":"quit"}
// stdout: one JSON object per line
//   {"event":"loaded","device":{"kind":"gpu","backend":"CUDA","name":"NVIDIA ...",...},"fallback":null,
//    "skipped":[{"module":"libggml-cuda.so","reason":"... libcudart.so.12: cannot open shared object file ..."}],...}
//   {"event":"progress","id":..,"percent":N} {"event":"segment","id":..,...}
//   {"event":"done","id":..,"language":..,"duration":..,
//    "vad":{"speechSeconds":..,"skippedSeconds":..,"speech":[{"start":..,"end":..},...]}}   (vad only when it ran)
//   {"event":"error","id":..,"code":..,"message":..}
//   {"event":"alive","id":..}: at most once a second while a job's computation advances (the parent's watchdog)
//   {"event":"fatal","message":..}: ggml's own words as it aborts the process (an assertion, a GPU error)
// The pcm file holds raw float32 little-endian 16 kHz mono samples.
// Commands are read on a separate thread so a cancel reaches whisper's abort_callback mid-job;
// stdin EOF (the parent died) aborts the current job and exits.

// whisper.cpp is compiled into this file (not linked as libwhisper) so the worker can reach the state's CPU
// backend: whisper_full's abort_callback is only checked between encoder/decoder passes, and one encoder pass
// takes seconds on the CPU; an abort callback on the CPU backend stops a pass within one graph node.
#include "whisper.cpp"

#include "device.h"

// nlohmann's single-header JSON, as whisper.cpp's own examples/ ships it (CMakeLists.txt adds the folder)
#include "json.hpp"

#include "job-options.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>
#ifdef _WIN32
#include <process.h> // _getpid: MSVC has no unistd.h
#define getpid _getpid
#else
#include <unistd.h>
#endif

namespace {

std::mutex g_out_mutex;
std::atomic<bool> g_abort{false};
std::mutex g_job_mutex;
std::string g_current_job;
std::set<std::string> g_cancelled; // cancels that arrived before their job started

// ordered: the fields go out in the order they are set, as the protocol at the top of this file lists them
using json = nlohmann::ordered_json;

using folio::recording_time;
using folio::rounded;

std::string g_vad_model; // the converted Silero VAD v5 weights (scripts/lib/silero-vad.ts)

void emit(const json & event) {
    // text from a random-weight model can be invalid UTF-8: replaced by U+FFFD rather than thrown on
    const std::string line = event.dump(-1, ' ', false, json::error_handler_t::replace);
    std::lock_guard<std::mutex> lock(g_out_mutex);
    fwrite(line.data(), 1, line.size(), stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

void emit_error(const std::string & id, const std::string & code, const std::string & message) {
    emit({{"event", "error"}, {"id", id}, {"code", code}, {"message", message}});
}

// A command's string field; absent or of another type reads as empty.
std::string field(const json & cmd, const char * key) {
    auto it = cmd.find(key);
    return it != cmd.end() && it->is_string() ? it->get<std::string>() : "";
}


// ---------- command queue fed by the stdin thread ----------

struct Queue {
    std::mutex m;
    std::condition_variable cv;
    std::deque<json> items;
    bool closed = false;
};

void read_stdin(Queue * q) {
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.empty()) continue;
        json cmd = json::parse(line, nullptr, false); // no exceptions: a bad line is discarded
        if (!cmd.is_object()) {
            emit_error("", "bad_command", "could not parse command line as a JSON object");
            continue;
        }
        if (field(cmd, "cmd") == "cancel") {
            const std::string id = field(cmd, "id");
            std::lock_guard<std::mutex> lock(g_job_mutex);
            if (!g_current_job.empty() && (id.empty() || id == g_current_job)) g_abort = true;
            else if (!id.empty()) g_cancelled.insert(id);
            continue;
        }
        std::lock_guard<std::mutex> lock(q->m);
        q->items.push_back(cmd);
        q->cv.notify_one();
    }
    g_abort = true;
    std::lock_guard<std::mutex> lock(q->m);
    q->closed = true;
    q->cv.notify_one();
}

// ---------- transcription ----------

struct JobCtx {
    std::string id;
    int last_percent = -1;
    float duration = 0;
    int next_segment = 0;
};

bool read_pcm(const std::string & path, std::vector<float> & pcm, std::string & err) {
    FILE * f = fopen(path.c_str(), "rb");
    if (!f) { err = "cannot open the decoded audio"; return false; }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (size < 0 || size % 4 != 0) { fclose(f); err = "pcm file size is not a multiple of 4 bytes"; return false; }
    pcm.resize(size / 4);
    size_t got = pcm.empty() ? 0 : fread(pcm.data(), 4, pcm.size(), f);
    fclose(f);
    if (got != pcm.size()) { err = "short read on pcm file"; return false; }
    for (float & v : pcm) {
        if (!std::isfinite(v)) v = 0.0f; // NaN makes whisper.cpp abort()
    }
    return true;
}

bool is_special(whisper_context * ctx, whisper_token id, const char * text) {
    if (id >= whisper_token_eot(ctx)) return true;
    return text[0] == '[' && text[1] == '_';
}

// Tokens merge into words: a token starting with a space starts a new word; special tokens are skipped.
// With DTW, a word starts at its first token's DTW time and ends where the next word starts.
json words_json(whisper_context * ctx, int seg, int64_t seg_t0, int64_t seg_t1, bool dtw) {
    struct Word { std::string text; int64_t t0, t1, dtw0; double p_sum; int n; };
    std::vector<Word> words;
    const int n = whisper_full_n_tokens(ctx, seg);
    for (int t = 0; t < n; t++) {
        const whisper_token_data td = whisper_full_get_token_data(ctx, seg, t);
        const char * text = whisper_token_to_str(ctx, td.id);
        if (!text || is_special(ctx, td.id, text)) continue;
        if (words.empty() || text[0] == ' ') {
            words.push_back({text, recording_time(ctx, td.t0), recording_time(ctx, td.t1), recording_time(ctx, td.t_dtw),
                             td.p, 1});
        } else {
            Word & w = words.back();
            w.text += text;
            const int64_t t1 = recording_time(ctx, td.t1);
            if (t1 > w.t1) w.t1 = t1;
            w.p_sum += td.p;
            w.n++;
        }
    }
    if (dtw) {
        for (size_t i = 0; i < words.size(); i++) {
            if (words[i].dtw0 >= 0) words[i].t0 = words[i].dtw0;
            if (i + 1 < words.size() && words[i + 1].dtw0 >= 0) words[i].t1 = words[i + 1].dtw0;
        }
    }
    json out = json::array();
    for (Word & w : words) {
        size_t b = w.text.find_first_not_of(' ');
        if (b == std::string::npos) continue;
        int64_t t0 = std::max(seg_t0, std::min(w.t0, seg_t1));
        int64_t t1 = std::max(t0, std::min(w.t1, seg_t1));
        out.push_back({{"word", w.text.substr(b)}, {"start", rounded(t0 / 100.0)}, {"end", rounded(t1 / 100.0)},
                       {"probability", rounded(w.p_sum / w.n, 10000)}});
    }
    return out;
}

bool g_dtw = false;

void on_segment(whisper_context * ctx, whisper_state *, int n_new, void * user) {
    JobCtx * job = (JobCtx *) user;
    const int n = whisper_full_n_segments(ctx);
    for (int s = n - n_new; s < n; s++) {
        const int64_t t0 = whisper_full_get_segment_t0(ctx, s);
        const int64_t t1 = whisper_full_get_segment_t1(ctx, s);
        emit({{"event", "segment"}, {"id", job->id}, {"index", s}, {"start", rounded(t0 / 100.0)},
              {"end", rounded(t1 / 100.0)}, {"text", whisper_full_get_segment_text(ctx, s)},
              {"words", words_json(ctx, s, t0, t1, g_dtw)}});
    }
}

void on_progress(whisper_context *, whisper_state *, int progress, void * user) {
    JobCtx * job = (JobCtx *) user;
    if (progress > 99) progress = 99; // 100 is only sent with done
    if (progress <= job->last_percent) return;
    job->last_percent = progress;
    emit({{"event", "progress"}, {"id", job->id}, {"percent", progress}});
}

std::atomic<int64_t> g_last_beat_us{0};

// Proof of life for the parent's stall watchdog. The abort callbacks run between graph nodes (CPU) and between
// passes (whisper itself, any backend), so only while computation advances; a hung kernel or a stopped process
// sends nothing.
void beat() {
    const int64_t now = ggml_time_us();
    if (now - g_last_beat_us.load() < 1000000) return;
    g_last_beat_us = now;
    std::string id;
    {
        std::lock_guard<std::mutex> lock(g_job_mutex);
        id = g_current_job;
    }
    if (!id.empty()) emit({{"event", "alive"}, {"id", id}});
}

// ggml is about to abort the process: its message is the crash's reason, which a backtrace on stderr would bury
void on_ggml_abort(const char * message) {
    emit({{"event", "fatal"}, {"message", message ? message : "ggml aborted"}});
}

bool on_abort(void *) {
    beat();
    return g_abort.load();
}
bool on_encoder_begin(whisper_context *, whisper_state *, void *) { return !g_abort.load(); }

// Whether the file opens for reading, as whisper.cpp will open it (portable where access() is not).
bool readable(const std::string & path) {
    FILE * f = fopen(path.c_str(), "rb");
    if (!f) return false;
    fclose(f);
    return true;
}

void transcribe(whisper_context * ctx, const json & cmd, int default_threads) {
    JobCtx job;
    job.id = field(cmd, "id");
    std::vector<float> pcm;
    std::string err;
    if (!read_pcm(field(cmd, "pcm"), pcm, err)) { emit_error(job.id, "bad_audio", err); return; }
    job.duration = pcm.size() / (float) WHISPER_SAMPLE_RATE;

    whisper_full_params p = whisper_full_default_params(WHISPER_SAMPLING_GREEDY);
    const auto asked = cmd.find("threads");
    const int threads = asked != cmd.end() && asked->is_number() ? (int) asked->get<double>() : 0;
    p.n_threads = threads > 0 ? threads : default_threads;
    p.print_progress = p.print_realtime = p.print_timestamps = p.print_special = false;
    p.token_timestamps = true;
    p.greedy.best_of = 1; // one sample per fallback temperature: a hard window costs at most six decodes, not 26
    folio::set_guards(p, cmd.contains("guards") ? cmd["guards"] : json());
    const bool translate = field(cmd, "task") == "translate";
    if (translate && !whisper_is_multilingual(ctx)) {
        emit_error(job.id, "bad_task", "an English-only model cannot translate");
        return;
    }
    p.translate = translate;
    const auto no_ts = cmd.find("noTimestamps");
    p.no_timestamps = no_ts != cmd.end() && no_ts->is_boolean() && no_ts->get<bool>();
    const bool vad = cmd.contains("vad") && cmd["vad"].is_object();
    if (vad && !readable(g_vad_model)) {
        emit_error(job.id, "vad_missing", "the VAD model is missing (" + g_vad_model + "): rebuild with npm run build:whisper");
        return;
    }
    if (vad && !folio::ensure_vad_context(ctx, g_vad_model)) {
        emit_error(job.id, "vad_missing", "whisper.cpp could not load the VAD model " + g_vad_model);
        return;
    }
    if (vad) folio::set_vad(p, cmd["vad"], g_vad_model);
    std::string language = field(cmd, "language").empty() ? "auto" : field(cmd, "language");
    if (!whisper_is_multilingual(ctx)) language = "en";
    if (language != "auto" && whisper_lang_id(language.c_str()) < 0) {
        emit_error(job.id, "bad_language", "unknown language code: " + language);
        return;
    }
    p.language = language.c_str();
    p.detect_language = false;
    const std::string prompt = field(cmd, "prompt");
    if (!prompt.empty()) p.initial_prompt = prompt.c_str();
    p.new_segment_callback = on_segment;
    p.new_segment_callback_user_data = &job;
    p.progress_callback = on_progress;
    p.progress_callback_user_data = &job;
    p.abort_callback = on_abort;
    p.encoder_begin_callback = on_encoder_begin;

    const int rc = pcm.empty() ? 0 : whisper_full(ctx, p, pcm.data(), (int) pcm.size());
    if (g_abort.load()) { emit_error(job.id, "aborted", "transcription cancelled"); return; }
    if (rc != 0) { emit_error(job.id, "failed", "whisper_full failed with code " + std::to_string(rc)); return; }
    const int lang_id = whisper_full_lang_id(ctx);
    const char * lang = lang_id >= 0 ? whisper_lang_str(lang_id) : language.c_str();
    json done = {{"event", "done"}, {"id", job.id}, {"language", lang ? lang : ""}, {"duration", rounded(job.duration)}};
    if (vad) done["vad"] = folio::vad_summary(ctx, job.duration);
    emit(done);
}

std::string g_log_errors; // errors ggml and whisper log while the model loads: the reason for a fallback

void quiet_log(ggml_log_level level, const char * text, void *) {
    if (level != GGML_LOG_LEVEL_ERROR) return;
    fputs(text, stderr); // stderr is kept by the parent for crash reports
    std::string line = text;
    while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
    if (!line.empty() && g_log_errors.size() < 2000) g_log_errors += (g_log_errors.empty() ? "" : "; ") + line;
}

// The folder this binary lives in: the backend modules are installed beside it (build/whisper/, app resources).
std::string own_dir(const char * argv0) {
    std::error_code ec;
    std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) self = std::filesystem::absolute(argv0, ec);
    return self.parent_path().string();
}

whisper_context * load_model(const std::string & model, whisper_context_params cparams) {
    g_log_errors.clear();
    return whisper_init_from_file_with_params(model.c_str(), cparams);
}

// The backend that runs the encoder: the state's first one (whisper puts the GPU first, the CPU last).
bool runs_on_gpu(whisper_context * ctx) {
    if (!ctx->state || ctx->state->backends.empty()) return false;
    ggml_backend_dev_t dev = ggml_backend_get_device(ctx->state->backends.front());
    return dev && folio::is_gpu(dev);
}

// a cancel stops the CPU backend within one graph node (whisper itself only looks between passes)
void set_cpu_abort(whisper_context * ctx) {
    for (ggml_backend_t backend : ctx->state->backends) {
        ggml_backend_dev_t dev = ggml_backend_get_device(backend);
        if (!dev || ggml_backend_dev_type(dev) != GGML_BACKEND_DEVICE_TYPE_CPU) continue;
        auto set_abort = (ggml_backend_set_abort_callback_t) ggml_backend_reg_get_proc_address(
            ggml_backend_dev_backend_reg(dev), "ggml_backend_set_abort_callback");
        if (set_abort) set_abort(backend, on_abort, nullptr);
    }
}

json device_json(const folio::Device & d, int threads) {
    return {{"kind", d.kind}, {"backend", d.backend}, {"name", d.name}, {"threads", threads}, {"simd", d.simd},
            {"features", d.features}};
}

// The text layers and heads a model has, from its ggml header (magic, n_vocab, 4 audio fields, n_text_ctx,
// n_text_state, n_text_head, n_text_layer): 1.9 crashes on an alignment-head preset that does not fit the model.
bool preset_fits(const std::string & model, whisper_alignment_heads_preset preset) {
    FILE * f = fopen(model.c_str(), "rb");
    if (!f) return false;
    int32_t h[10] = {0};
    const bool ok = fread(h, sizeof(int32_t), 10, f) == 10;
    fclose(f);
    if (!ok) return false;
    const int n_text_head = h[8], n_text_layer = h[9];
    const whisper_aheads & heads = g_aheads.at(preset);
    for (size_t i = 0; i < heads.n_heads; i++) {
        if (heads.heads[i].n_text_layer >= n_text_layer || heads.heads[i].n_head >= n_text_head) return false;
    }
    return true;
}

std::string dtw_preset_or_empty(const std::string & dtw, const std::string & model, whisper_context_params & cparams) {
    static const std::map<std::string, whisper_alignment_heads_preset> presets = {
        {"tiny.en", WHISPER_AHEADS_TINY_EN}, {"tiny", WHISPER_AHEADS_TINY},
        {"base.en", WHISPER_AHEADS_BASE_EN}, {"base", WHISPER_AHEADS_BASE},
        {"small.en", WHISPER_AHEADS_SMALL_EN}, {"small", WHISPER_AHEADS_SMALL},
        {"medium.en", WHISPER_AHEADS_MEDIUM_EN}, {"medium", WHISPER_AHEADS_MEDIUM},
        {"large-v3", WHISPER_AHEADS_LARGE_V3}, {"large-v3-turbo", WHISPER_AHEADS_LARGE_V3_TURBO}};
    auto it = presets.find(dtw);
    if (it == presets.end() || !preset_fits(model, it->second)) return "";
    cparams.dtw_token_timestamps = true;
    cparams.dtw_aheads_preset = it->second;
    return dtw;
}

}  // namespace

int main(int argc, char ** argv) {
    std::string model, dtw, preference = "auto", modules;
    int threads = 2;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string k = argv[i];
        if (k == "--model") model = argv[i + 1];
        else if (k == "--threads") threads = atoi(argv[i + 1]);
        else if (k == "--dtw") dtw = argv[i + 1];
        else if (k == "--device") preference = argv[i + 1];
        else if (k == "--modules") modules = argv[i + 1];
        else if (k == "--vad-model") g_vad_model = argv[i + 1];
    }
    if (threads < 1) threads = 1;
    if (preference != "cpu" && preference != "gpu") preference = "auto";
    if (modules.empty()) modules = own_dir(argv[0]);
    if (g_vad_model.empty()) g_vad_model = (std::filesystem::path(modules) / "silero-vad-v5.ggml").string();
    whisper_log_set(quiet_log, nullptr);
    ggml_set_abort_callback(on_ggml_abort);
    if (model.empty()) { emit_error("", "usage", "usage: folio-whisper-worker --model <path> [--threads N] [--device auto|cpu|gpu]"); return 2; }
    if (!readable(model)) { emit_error("", "model_missing", "model file not readable: " + model); return 2; }

    const int64_t t0 = ggml_time_us();
    if (preference == "cpu") folio::load_cpu_module(modules);
    else ggml_backend_load_all_from_path(modules.c_str());
    if (!ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU)) {
        emit_error("", "no_backend", "no ggml CPU backend module found in " + modules + ": rebuild with npm run build:whisper");
        return 3;
    }
    folio::Device device = folio::choose_device(preference, modules, g_log_errors);
    json skipped = json::array();
    if (preference != "cpu")
        for (const auto & s : folio::skipped_modules(modules, g_log_errors))
            skipped.push_back({{"module", s.module}, {"reason", s.reason}});
    int gpu_devices = 0;
    for (size_t i = 0; i < ggml_backend_dev_count(); i++) gpu_devices += folio::is_gpu(ggml_backend_dev_get(i)) ? 1 : 0;

    // DTW word times do not work with flash attention: on the GPU, flash attention wins (2x faster encoder);
    // on the CPU, where it gains little, a catalog model keeps its DTW word times
    whisper_context_params cparams = whisper_context_default_params();
    cparams.use_gpu = device.kind == "gpu";
    cparams.gpu_device = device.gpu_index;
    cparams.flash_attn = true;
    if (!cparams.use_gpu && !dtw.empty() && !dtw_preset_or_empty(dtw, model, cparams).empty()) cparams.flash_attn = false;

    whisper_context * ctx = load_model(model, cparams);
    if (cparams.use_gpu && (!ctx || !runs_on_gpu(ctx))) {
        // the GPU did not initialize or the model does not fit in its memory: the CPU runs it instead
        device.fallback = (ctx ? device.backend + " did not initialize " + device.name
                               : "the model did not load on " + device.name + " (" + device.backend + ")") +
                          (g_log_errors.empty() ? "" : ": " + g_log_errors);
        if (ctx) whisper_free(ctx);
        folio::Device cpu;
        folio::describe_cpu(cpu);
        cpu.fallback = device.fallback;
        device = cpu;
        cparams.use_gpu = false;
        if (!dtw.empty() && !dtw_preset_or_empty(dtw, model, cparams).empty()) cparams.flash_attn = false;
        ctx = load_model(model, cparams);
    }
    if (!ctx && cparams.dtw_token_timestamps) {
        // the alignment-head preset does not fit this model's layers/heads: plain token timestamps instead
        cparams.dtw_token_timestamps = false;
        ctx = load_model(model, cparams);
    }
    if (!ctx) { emit_error("", "model_invalid", "whisper.cpp could not load the model: " + model); return 3; }
    g_dtw = cparams.dtw_token_timestamps && !cparams.flash_attn;
    set_cpu_abort(ctx);
    emit({{"event", "loaded"}, {"pid", getpid()}, {"load_ms", (ggml_time_us() - t0) / 1000},
          {"multilingual", whisper_is_multilingual(ctx) != 0}, {"dtw", g_dtw}, {"flashAttn", cparams.flash_attn},
          {"preference", preference}, {"device", device_json(device, threads)},
          {"fallback", device.fallback.empty() ? json(nullptr) : json(device.fallback)},
          {"gpuDevices", gpu_devices}, {"skipped", skipped}, {"vad", readable(g_vad_model)}, {"version", whisper_version()},
          {"system", whisper_print_system_info()}});

    Queue q;
    std::thread reader(read_stdin, &q);
    reader.detach(); // getline cannot be interrupted; the thread ends with the process
    while (true) {
        json cmd;
        {
            std::unique_lock<std::mutex> lock(q.m);
            q.cv.wait(lock, [&] { return q.closed || !q.items.empty(); });
            if (q.items.empty()) break;
            cmd = q.items.front();
            q.items.pop_front();
        }
        const std::string name = field(cmd, "cmd"), id = field(cmd, "id");
        if (name == "quit") break;
        if (name != "transcribe") { emit_error(id, "bad_command", "unknown command: " + name); continue; }
        {
            std::lock_guard<std::mutex> lock(g_job_mutex);
            g_current_job = id;
            g_abort = g_cancelled.erase(id) > 0;
        }
        transcribe(ctx, cmd, threads);
        std::lock_guard<std::mutex> lock(g_job_mutex);
        g_current_job.clear();
        g_abort = false;
    }
    whisper_free(ctx);
    return 0;
}
