// Folio whisper worker: loads one ggml Whisper model once, then serves transcription jobs.
//
// Usage: folio-whisper-worker --model <path> [--threads N] [--dtw <preset: tiny.en, base, ..., large-v3>]
// stdin : one JSON object per line
//   {"cmd":"transcribe","id":"j1","pcm":"/tmp/x.f32","language":"en","prompt":"...","threads":2}
//   {"cmd":"cancel","id":"j1"}   {"cmd":"quit"}
// stdout: one JSON object per line
//   {"event":"loaded",...} {"event":"progress","id":..,"percent":N} {"event":"segment","id":..,...}
//   {"event":"done","id":..,"language":..,"duration":..} {"event":"error","id":..,"code":..,"message":..}
// The pcm file holds raw float32 little-endian 16 kHz mono samples.
// Commands are read on a separate thread so a cancel reaches whisper's abort_callback mid-job;
// stdin EOF (the parent died) aborts the current job and exits.

// whisper.cpp is compiled into this file (not linked as whisper.o) so the worker can reach the state's CPU
// backend: in 1.6.2 whisper_full's abort_callback is only checked between encoder/decoder passes, and one
// encoder pass takes seconds; an abort callback on the backend stops a pass within one graph node.
#include "whisper.cpp"

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
#include <unistd.h>

namespace {

std::mutex g_out_mutex;
std::atomic<bool> g_abort{false};
std::mutex g_job_mutex;
std::string g_current_job;
std::set<std::string> g_cancelled; // cancels that arrived before their job started

// ---------- JSON output ----------

std::string json_str(const std::string & s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    snprintf(buf, sizeof(buf), "\\u%04x", c);
                    out += buf;
                } else {
                    out += (char) c; // invalid UTF-8 is replaced by the reader's decoder
                }
        }
    }
    return out + "\"";
}

std::string json_num(double v, int decimals = 3) {
    if (!std::isfinite(v)) return "0";
    char buf[32];
    snprintf(buf, sizeof(buf), "%.*f", decimals, v);
    return buf;
}

void emit(const std::string & line) {
    std::lock_guard<std::mutex> lock(g_out_mutex);
    fwrite(line.data(), 1, line.size(), stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

void emit_error(const std::string & id, const std::string & code, const std::string & message) {
    emit("{\"event\":\"error\",\"id\":" + json_str(id) + ",\"code\":" + json_str(code) +
         ",\"message\":" + json_str(message) + "}");
}

// ---------- JSON input: flat objects of strings, numbers and booleans are all we accept ----------

bool parse_flat_json(const std::string & s, std::map<std::string, std::string> & out) {
    size_t i = 0;
    auto ws = [&]() { while (i < s.size() && isspace((unsigned char) s[i])) i++; };
    auto str = [&](std::string & v) -> bool {
        if (i >= s.size() || s[i] != '"') return false;
        i++;
        while (i < s.size() && s[i] != '"') {
            char c = s[i++];
            if (c != '\\') { v += c; continue; }
            if (i >= s.size()) return false;
            char e = s[i++];
            switch (e) {
                case 'n': v += '\n'; break;
                case 't': v += '\t'; break;
                case 'r': v += '\r'; break;
                case 'b': v += '\b'; break;
                case 'f': v += '\f'; break;
                case 'u': {
                    if (i + 4 > s.size()) return false;
                    unsigned cp = (unsigned) strtoul(s.substr(i, 4).c_str(), nullptr, 16);
                    i += 4;
                    if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 <= s.size() && s[i] == '\\' && s[i + 1] == 'u') {
                        unsigned lo = (unsigned) strtoul(s.substr(i + 2, 4).c_str(), nullptr, 16);
                        i += 6;
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    }
                    if (cp < 0x80) v += (char) cp;
                    else if (cp < 0x800) { v += (char) (0xC0 | (cp >> 6)); v += (char) (0x80 | (cp & 0x3F)); }
                    else if (cp < 0x10000) {
                        v += (char) (0xE0 | (cp >> 12)); v += (char) (0x80 | ((cp >> 6) & 0x3F));
                        v += (char) (0x80 | (cp & 0x3F));
                    } else {
                        v += (char) (0xF0 | (cp >> 18)); v += (char) (0x80 | ((cp >> 12) & 0x3F));
                        v += (char) (0x80 | ((cp >> 6) & 0x3F)); v += (char) (0x80 | (cp & 0x3F));
                    }
                    break;
                }
                default: v += e;
            }
        }
        if (i >= s.size()) return false;
        i++;
        return true;
    };
    ws();
    if (i >= s.size() || s[i++] != '{') return false;
    ws();
    if (i < s.size() && s[i] == '}') return true;
    while (i < s.size()) {
        std::string key, value;
        ws();
        if (!str(key)) return false;
        ws();
        if (i >= s.size() || s[i++] != ':') return false;
        ws();
        if (i < s.size() && s[i] == '"') {
            if (!str(value)) return false;
        } else {
            while (i < s.size() && s[i] != ',' && s[i] != '}' && !isspace((unsigned char) s[i])) value += s[i++];
            if (value.empty()) return false;
        }
        out[key] = value;
        ws();
        if (i < s.size() && s[i] == ',') { i++; continue; }
        if (i < s.size() && s[i] == '}') return true;
        return false;
    }
    return false;
}

// ---------- command queue fed by the stdin thread ----------

struct Queue {
    std::mutex m;
    std::condition_variable cv;
    std::deque<std::map<std::string, std::string>> items;
    bool closed = false;
};

void read_stdin(Queue * q) {
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.empty()) continue;
        std::map<std::string, std::string> cmd;
        if (!parse_flat_json(line, cmd)) {
            emit_error("", "bad_command", "could not parse command line as a flat JSON object");
            continue;
        }
        if (cmd["cmd"] == "cancel") {
            std::lock_guard<std::mutex> lock(g_job_mutex);
            if (!g_current_job.empty() && (cmd["id"].empty() || cmd["id"] == g_current_job)) g_abort = true;
            else if (!cmd["id"].empty()) g_cancelled.insert(cmd["id"]);
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
    if (!f) { err = "cannot open pcm file: " + path; return false; }
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
std::string words_json(whisper_context * ctx, int seg, int64_t seg_t0, int64_t seg_t1, bool dtw) {
    struct Word { std::string text; int64_t t0, t1, dtw0; double p_sum; int n; };
    std::vector<Word> words;
    const int n = whisper_full_n_tokens(ctx, seg);
    for (int t = 0; t < n; t++) {
        const whisper_token_data td = whisper_full_get_token_data(ctx, seg, t);
        const char * text = whisper_token_to_str(ctx, td.id);
        if (!text || is_special(ctx, td.id, text)) continue;
        if (words.empty() || text[0] == ' ') {
            words.push_back({text, td.t0, td.t1, td.t_dtw, td.p, 1});
        } else {
            Word & w = words.back();
            w.text += text;
            if (td.t1 > w.t1) w.t1 = td.t1;
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
    std::string out = "[";
    bool first = true;
    for (Word & w : words) {
        size_t b = w.text.find_first_not_of(' ');
        if (b == std::string::npos) continue;
        int64_t t0 = std::max(seg_t0, std::min(w.t0, seg_t1));
        int64_t t1 = std::max(t0, std::min(w.t1, seg_t1));
        if (!first) out += ",";
        first = false;
        out += "{\"word\":" + json_str(w.text.substr(b)) + ",\"start\":" + json_num(t0 / 100.0) +
               ",\"end\":" + json_num(t1 / 100.0) + ",\"probability\":" + json_num(w.p_sum / w.n, 4) + "}";
    }
    return out + "]";
}

bool g_dtw = false;

void on_segment(whisper_context * ctx, whisper_state *, int n_new, void * user) {
    JobCtx * job = (JobCtx *) user;
    const int n = whisper_full_n_segments(ctx);
    for (int s = n - n_new; s < n; s++) {
        const int64_t t0 = whisper_full_get_segment_t0(ctx, s);
        const int64_t t1 = whisper_full_get_segment_t1(ctx, s);
        emit("{\"event\":\"segment\",\"id\":" + json_str(job->id) + ",\"index\":" + std::to_string(s) +
             ",\"start\":" + json_num(t0 / 100.0) + ",\"end\":" + json_num(t1 / 100.0) +
             ",\"text\":" + json_str(whisper_full_get_segment_text(ctx, s)) +
             ",\"words\":" + words_json(ctx, s, t0, t1, g_dtw) + "}");
    }
}

void on_progress(whisper_context *, whisper_state *, int progress, void * user) {
    JobCtx * job = (JobCtx *) user;
    if (progress > 99) progress = 99; // 100 is only sent with done
    if (progress <= job->last_percent) return;
    job->last_percent = progress;
    emit("{\"event\":\"progress\",\"id\":" + json_str(job->id) + ",\"percent\":" + std::to_string(progress) + "}");
}

bool on_abort(void *) { return g_abort.load(); }
bool on_encoder_begin(whisper_context *, whisper_state *, void *) { return !g_abort.load(); }

void transcribe(whisper_context * ctx, std::map<std::string, std::string> & cmd, int default_threads) {
    JobCtx job;
    job.id = cmd["id"];
    std::vector<float> pcm;
    std::string err;
    if (!read_pcm(cmd["pcm"], pcm, err)) { emit_error(job.id, "bad_audio", err); return; }
    job.duration = pcm.size() / (float) WHISPER_SAMPLE_RATE;

    whisper_full_params p = whisper_full_default_params(WHISPER_SAMPLING_GREEDY);
    const int threads = cmd.count("threads") ? atoi(cmd["threads"].c_str()) : default_threads;
    p.n_threads = threads > 0 ? threads : default_threads;
    p.print_progress = p.print_realtime = p.print_timestamps = p.print_special = false;
    p.token_timestamps = true;
    p.temperature_inc = 0.0f; // no temperature fallback: greedy, one pass
    p.greedy.best_of = 1;
    std::string language = cmd.count("language") && !cmd["language"].empty() ? cmd["language"] : "auto";
    if (!whisper_is_multilingual(ctx)) language = "en";
    if (language != "auto" && whisper_lang_id(language.c_str()) < 0) {
        emit_error(job.id, "bad_language", "unknown language code: " + language);
        return;
    }
    p.language = language.c_str();
    p.detect_language = false;
    std::string prompt = cmd["prompt"];
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
    emit("{\"event\":\"done\",\"id\":" + json_str(job.id) + ",\"language\":" + json_str(lang ? lang : "") +
         ",\"duration\":" + json_num(job.duration) + "}");
}

void quiet_log(ggml_log_level level, const char * text, void *) {
    if (level == GGML_LOG_LEVEL_ERROR) fputs(text, stderr); // stderr is kept by the parent for crash reports
}

}  // namespace

int main(int argc, char ** argv) {
    std::string model;
    int threads = 2;
    std::string dtw;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string k = argv[i];
        if (k == "--model") model = argv[i + 1];
        else if (k == "--threads") threads = atoi(argv[i + 1]);
        else if (k == "--dtw") dtw = argv[i + 1];
    }
    if (threads < 1) threads = 1;
    whisper_log_set(quiet_log, nullptr);
    if (model.empty()) { emit_error("", "usage", "usage: folio-whisper-worker --model <path> [--threads N]"); return 2; }
    if (access(model.c_str(), R_OK) != 0) { emit_error("", "model_missing", "model file not readable: " + model); return 2; }

    whisper_context_params cparams = whisper_context_default_params();
    cparams.use_gpu = false;
    if (!dtw.empty()) {
        static const std::map<std::string, whisper_alignment_heads_preset> presets = {
            {"tiny.en", WHISPER_AHEADS_TINY_EN}, {"tiny", WHISPER_AHEADS_TINY},
            {"base.en", WHISPER_AHEADS_BASE_EN}, {"base", WHISPER_AHEADS_BASE},
            {"small.en", WHISPER_AHEADS_SMALL_EN}, {"small", WHISPER_AHEADS_SMALL},
            {"medium.en", WHISPER_AHEADS_MEDIUM_EN}, {"medium", WHISPER_AHEADS_MEDIUM},
            {"large-v3", WHISPER_AHEADS_LARGE_V3}};
        auto it = presets.find(dtw);
        if (it != presets.end()) {
            cparams.dtw_token_timestamps = true;
            cparams.dtw_aheads_preset = it->second;
            g_dtw = true;
        }
    }
    const int64_t t0 = ggml_time_us();
    whisper_context * ctx = whisper_init_from_file_with_params(model.c_str(), cparams);
    if (!ctx && g_dtw) {
        // the alignment-head preset does not fit this model's layers/heads: plain token timestamps instead
        cparams.dtw_token_timestamps = false;
        g_dtw = false;
        ctx = whisper_init_from_file_with_params(model.c_str(), cparams);
    }
    if (!ctx) { emit_error("", "model_invalid", "whisper.cpp could not load the model: " + model); return 3; }
    for (ggml_backend_t backend : ctx->state->backends) {
        if (ggml_backend_is_cpu(backend)) ggml_backend_cpu_set_abort_callback(backend, on_abort, nullptr);
    }
    emit("{\"event\":\"loaded\",\"pid\":" + std::to_string(getpid()) + ",\"load_ms\":" +
         std::to_string((ggml_time_us() - t0) / 1000) + ",\"multilingual\":" +
         (whisper_is_multilingual(ctx) ? "true" : "false") + ",\"dtw\":" + (g_dtw ? "true" : "false") +
         ",\"system\":" + json_str(whisper_print_system_info()) + "}");

    Queue q;
    std::thread reader(read_stdin, &q);
    reader.detach(); // getline cannot be interrupted; the thread ends with the process
    while (true) {
        std::map<std::string, std::string> cmd;
        {
            std::unique_lock<std::mutex> lock(q.m);
            q.cv.wait(lock, [&] { return q.closed || !q.items.empty(); });
            if (q.items.empty()) break;
            cmd = q.items.front();
            q.items.pop_front();
        }
        if (cmd["cmd"] == "quit") break;
        if (cmd["cmd"] != "transcribe") { emit_error(cmd["id"], "bad_command", "unknown command: " + cmd["cmd"]); continue; }
        {
            std::lock_guard<std::mutex> lock(g_job_mutex);
            g_current_job = cmd["id"];
            g_abort = g_cancelled.erase(cmd["id"]) > 0;
        }
        transcribe(ctx, cmd, threads);
        std::lock_guard<std::mutex> lock(g_job_mutex);
        g_current_job.clear();
        g_abort = false;
    }
    whisper_free(ctx);
    return 0;
}
