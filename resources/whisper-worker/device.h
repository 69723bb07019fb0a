// Which device runs the model: ggml's backends are loadable modules beside the worker (GGML_BACKEND_DL); the CPU
// module is the variant that fits this CPU (AVX2, AVX-512, ...), and a GPU module (CUDA, Vulkan, Metal) is used
// when present, asked for and working. Anything that keeps the GPU from being used becomes a `fallback` reason.
#pragma once

#include "ggml-backend.h"

#include <cctype>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#define NOMINMAX // windows.h's min and max macros would break std::min and std::max
#include <windows.h>
#else
#include <dlfcn.h>
#endif

namespace folio {

struct Device {
    std::string kind = "cpu";     // cpu | gpu
    std::string backend = "CPU";  // CPU | CUDA | Vulkan | Metal | ...
    std::string name;             // the GPU's or the CPU's own description
    std::string simd;             // the CPU variant's widest instruction set, e.g. AVX2
    std::vector<std::string> features;
    std::string fallback;         // why the GPU is not used, when one was asked for
    ggml_backend_dev_t dev = nullptr;
    int gpu_index = 0;            // among GPU devices, for whisper_context_params.gpu_device
};

inline bool is_gpu(ggml_backend_dev_t dev) {
    const auto type = ggml_backend_dev_type(dev);
    return type == GGML_BACKEND_DEVICE_TYPE_GPU || type == GGML_BACKEND_DEVICE_TYPE_IGPU;
}

inline std::string backend_name(ggml_backend_dev_t dev) {
    const std::string name = ggml_backend_reg_name(ggml_backend_dev_backend_reg(dev));
    return name == "MTL" ? "Metal" : name;
}

// GPU modules shipped beside the worker, e.g. libggml-cuda.so or ggml-vulkan.dll
inline std::vector<std::filesystem::path> gpu_module_files(const std::string & dir) {
    static const char * kinds[] = {"cuda", "vulkan", "metal", "hip", "sycl", "opencl", "musa"};
    std::vector<std::filesystem::path> found;
    std::error_code ec;
    for (const auto & entry : std::filesystem::directory_iterator(dir, ec)) {
        std::string file = entry.path().filename().string();
        if (file.rfind("lib", 0) == 0) file = file.substr(3);
        for (const char * kind : kinds) {
            if (file.rfind(std::string("ggml-") + kind, 0) == 0) found.push_back(entry.path());
        }
    }
    return found;
}

// One shared library opened only to ask it something, then closed.
class Library {
  public:
    explicit Library(const std::filesystem::path & path) {
#ifdef _WIN32
        handle_ = LoadLibraryW(path.wstring().c_str());
#else
        handle_ = dlopen(path.string().c_str(), RTLD_NOW | RTLD_LOCAL);
#endif
    }
    ~Library() {
        if (!handle_) return;
#ifdef _WIN32
        FreeLibrary((HMODULE) handle_);
#else
        dlclose(handle_);
#endif
    }
    Library(const Library &) = delete;
    Library & operator=(const Library &) = delete;
    void * symbol(const char * name) const {
        if (!handle_) return nullptr;
#ifdef _WIN32
        return (void *) GetProcAddress((HMODULE) handle_, name);
#else
        return dlsym(handle_, name);
#endif
    }

  private:
    void * handle_ = nullptr;
};

// Loads the CPU module alone: the variant that scores best on this CPU, as ggml_backend_load_all_from_path would,
// without opening any GPU module. A CPU preference must not depend on a GPU driver that crashes while registering.
inline bool load_cpu_module(const std::string & dir) {
    std::error_code ec;
    std::filesystem::path best;
    int best_score = 0;
    std::filesystem::path base;
    for (const auto & entry : std::filesystem::directory_iterator(dir, ec)) {
        std::string file = entry.path().filename().string();
        if (file.rfind("lib", 0) == 0) file = file.substr(3);
        const std::string ext = entry.path().extension().string();
        if (ext != ".so" && ext != ".dll" && ext != ".dylib") continue;
        if (file == "ggml-cpu" + ext) base = entry.path();
        if (file.rfind("ggml-cpu-", 0) != 0) continue;
        Library library(entry.path());
        auto score = (int (*)()) library.symbol("ggml_backend_score");
        const int s = score ? score() : 0;
        if (s > best_score) {
            best_score = s;
            best = entry.path();
        }
    }
    const std::filesystem::path chosen = best_score > 0 ? best : base;
    return !chosen.empty() && ggml_backend_load(chosen.string().c_str()) != nullptr;
}

// The CPU module's compiled-in features: the ones set to 1 ("AVX2", "FMA", ...), widest first in `simd`.
inline void describe_cpu(Device & d) {
    ggml_backend_dev_t cpu = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
    if (!cpu) return;
    d.name = ggml_backend_dev_description(cpu);
    ggml_backend_reg_t reg = ggml_backend_dev_backend_reg(cpu);
    auto get_features = (ggml_backend_get_features_t) ggml_backend_reg_get_proc_address(reg, "ggml_backend_get_features");
    if (!get_features) return;
    for (ggml_backend_feature * f = get_features(reg); f->name; f++) {
        if (strcmp(f->value, "1") == 0) d.features.push_back(f->name);
    }
    static const char * widest[] = {"AMX_INT8", "AVX512_BF16", "AVX512_VNNI", "AVX512", "AVX_VNNI", "AVX2", "AVX",
                                    "SSE3", "SME", "SVE2", "SVE", "DOTPROD", "NEON"};
    for (const char * w : widest) {
        for (const auto & f : d.features) {
            if (f == w) { d.simd = w; return; }
        }
    }
}

// A GPU module beside the worker that did not load (its libraries missing: CUDA's runtime without the add-on, no
// Vulkan loader), and the loader's reason. Checked after ggml_backend_load_all_from_path, which loads silently.
struct SkippedModule {
    std::string module;
    std::string reason;
};

inline bool module_registered(const std::filesystem::path & module) {
    std::string kind = module.stem().string();
    if (kind.rfind("lib", 0) == 0) kind = kind.substr(3);
    kind = kind.substr(std::strlen("ggml-"));
    for (size_t i = 0; i < ggml_backend_reg_count(); i++) {
        std::string name = ggml_backend_reg_name(ggml_backend_reg_get(i));
        for (auto & c : name) c = (char) std::tolower((unsigned char) c);
        if (name == kind || (kind == "metal" && name == "mtl")) return true;
    }
    return false;
}

inline std::vector<SkippedModule> skipped_modules(const std::string & module_dir, std::string & load_errors) {
    std::vector<SkippedModule> skipped;
    for (const auto & module : gpu_module_files(module_dir)) {
        if (module_registered(module)) continue;
        load_errors.clear();
        if (ggml_backend_load(module.string().c_str())) continue; // loads now after all: not skipped
        skipped.push_back({module.filename().string(), load_errors.empty() ? "it did not load" : load_errors});
    }
    return skipped;
}

// Picks the device for a preference (auto | cpu | gpu) after ggml_backend_load_all_from_path(module_dir).
// `load_errors` holds what ggml logged as errors meanwhile, to explain a module that did not load.
inline Device choose_device(const std::string & preference, const std::string & module_dir, std::string & load_errors) {
    Device d;
    describe_cpu(d);
    if (preference == "cpu") return d;
    int index = 0;
    for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
        ggml_backend_dev_t dev = ggml_backend_dev_get(i);
        if (!is_gpu(dev)) continue;
        d.kind = "gpu";
        d.backend = backend_name(dev);
        d.name = ggml_backend_dev_description(dev);
        d.dev = dev;
        d.gpu_index = index;
        return d;
    }
    const auto modules = gpu_module_files(module_dir);
    if (modules.empty()) {
        if (preference == "gpu") d.fallback = "this worker was built without a GPU backend (CUDA, Vulkan or Metal)";
        return d;
    }
    // load it again, not silently, so ggml logs why (a missing driver library, an old driver)
    load_errors.clear();
    for (const auto & module : modules) ggml_backend_load(module.string().c_str());
    for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
        if (is_gpu(ggml_backend_dev_get(i))) return choose_device(preference, module_dir, load_errors);
    }
    std::string files;
    for (const auto & module : modules) files += (files.empty() ? "" : ", ") + module.filename().string();
    d.fallback = "the GPU backend " + files + (load_errors.empty() ? " found no GPU device" : " did not load: " + load_errors);
    return d;
}

}  // namespace folio
