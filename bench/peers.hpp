// Running the CUDA peer programs (bench/peers/) and reading their JSON lines.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace vkc::cli {

/// The peer executable `name` beside the vkc binary (<dir of vkc>/peers/<name>), or in the folder
/// the environment variable VKC_PEER_DIR names; throws Error naming the path when it is missing
/// (built only where nvcc exists).
std::filesystem::path peer_path(const std::string& name);

/// Runs `command` and returns each line of its stdout that parses as a JSON object, as text.
std::vector<std::string> run_peer(const std::string& command);

/// One CUB time: the median of its fastest call, and that call's count type ("int" or "int64":
/// CUB tunes by it; the radix peer times both).
struct CubTime {
  double ms = 0;
  std::string count_type;
};

/// CUB's time per n from vkc-peer-cub-sort --algo radix|merge for the given sizes; `bits`
/// ("BEGIN:END", radix only) is its --bits, empty for every bit.
std::map<std::uint64_t, CubTime> run_cub_peer(const std::string& algo, const std::string& key, const std::string& values,
                                             const std::string& order, const std::string& dist,
                                             const std::vector<std::uint64_t>& sizes, const std::string& bits = "");

struct TorchTimes {
  double host_to_host_ms = -1;  ///< host tensor to the GPU, torch.sort, back to the host (wall)
  double gpu_ms = -1;           ///< torch.sort on the GPU alone (CUDA events)
};

/// Whether python3 can import torch with a CUDA device (the PyTorch peer can run).
bool torch_peer_available();

/// bench/peers/torch_sort.py (copied beside the vkc binary, in peers/) for the given sizes.
std::map<std::uint64_t, TorchTimes> run_torch_peer(const std::string& key, const std::string& values,
                                                   const std::string& order, const std::vector<std::uint64_t>& sizes);

}  // namespace vkc::cli
