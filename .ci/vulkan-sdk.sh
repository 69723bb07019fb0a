#!/usr/bin/env bash
# A Vulkan SDK for building ggml's Vulkan module on Debian 12 (issue #34: the GPU path tested here, through Vulkan on
# the CPU). Debian 12's Vulkan headers (1.3.239) are too old for ggml-vulkan (it needs VK_EXT_layer_settings), so
# Debian 13's libvulkan-dev and spirv-headers (1.4.309) are downloaded with apt and only their headers extracted,
# nothing installed from Debian 13; glslc, the Vulkan loader and Mesa's lavapipe (a Vulkan device that runs on the
# CPU) come from Debian 12. Prints the folder to use as VULKAN_SDK (include/, lib/, bin/ as CMake's FindVulkan reads)
# and as CMAKE_PREFIX_PATH (share/cmake/SPIRV-Headers, which ggml-vulkan's CMakeLists asks for).
set -euo pipefail
sdk=${1:?usage: .ci/vulkan-sdk.sh DIR}
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq --no-install-recommends glslc libvulkan1 mesa-vulkan-drivers >/dev/null

apt_dir=$(mktemp -d)
trap 'rm -rf "$apt_dir"' EXIT
mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial"
echo 'deb http://deb.debian.org/debian trixie main' >"$apt_dir/sources.list"
apt_options=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/nonexistent
  -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache::Archives=$apt_dir/archives" -o APT::Sandbox::User=root)
apt-get "${apt_options[@]}" update -qq
(cd "$apt_dir" && apt-get "${apt_options[@]}" download -qq libvulkan-dev spirv-headers)

rm -rf "$sdk"
mkdir -p "$sdk/lib" "$sdk/bin" "$apt_dir/x"
for deb in "$apt_dir"/*.deb; do dpkg-deb -x "$deb" "$apt_dir/x"; done
cp -R "$apt_dir/x/usr/include" "$sdk/include"
mkdir -p "$sdk/share" && cp -R "$apt_dir/x/usr/share/cmake" "$sdk/share/cmake"
ln -sf "$(readlink -f /usr/lib/x86_64-linux-gnu/libvulkan.so.1)" "$sdk/lib/libvulkan.so"
ln -sf /usr/bin/glslc "$sdk/bin/glslc"
echo "$sdk"
