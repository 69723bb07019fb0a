// Which device runs the model: ggml's backends are loadable modules beside the worker (GGML_BACKEND_DL); the CPU
// module is the variant that fits this CPU (AVX2, AVX-512, ...), and a GPU module (CUDA, Vulkan, Metal) is used
// when present, asked for and working. Anything that keeps the GPU from being used becomes a `fallback` reason.
#pragma once

#include "ggml-backend.h"

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

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
