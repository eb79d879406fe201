#include "peers.hpp"

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "vkc/context.hpp"

namespace vkc::cli {

std::filesystem::path peer_path(const std::string& name) {
  const char* dir = std::getenv("VKC_PEER_DIR");
  const auto self = std::filesystem::read_symlink("/proc/self/exe");
  const auto path = (dir && *dir ? std::filesystem::path(dir) : self.parent_path() / "peers") / name;
  if (!std::filesystem::exists(path)) {
    throw Error("--peers: " + path.string() + " not found (the CUDA peers are built only where nvcc exists)");
  }
  return path;
}

std::vector<std::string> run_peer(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) throw Error("could not start: " + command);
  std::vector<std::string> lines;
  std::string line;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe.get())) {
    line += buf;
    if (line.empty() || line.back() != '\n') continue;
    if (line.front() == '{') lines.push_back(line);
    line.clear();
  }
  const int status = pclose(pipe.release());
  if (status != 0) throw Error("peer failed (exit status " + std::to_string(status) + "): " + command);
  return lines;
}

std::map<std::uint64_t, CubTime> run_cub_peer(const std::string& algo, const std::string& key, const std::string& values,
                                             const std::string& order, const std::string& dist,
                                             const std::vector<std::uint64_t>& sizes, const std::string& bits) {
  std::string list;
  for (auto n : sizes) list += (list.empty() ? "" : ",") + std::to_string(n);
  std::string command = peer_path("vkc-peer-cub-sort").string() + " --algo " + algo + " --key " + key + " --value " +
                        values + " --order " + order + " --dist " + dist + " --n " + list;
  if (!bits.empty()) command += " --bits " + bits;
  std::map<std::uint64_t, CubTime> out;
  for (const auto& line : run_peer(command)) {
    const auto j = nlohmann::json::parse(line);
    if (!j.value("verified", false)) throw Error("the CUB peer did not verify its output at n=" + j["n"].dump());
    out[j["n"].get<std::uint64_t>()] = {j["median_ms"].get<double>(), j.value("count_type", "int")};
  }
  return out;
}

bool torch_peer_available() {
  return std::system("python3 -c 'import numpy, torch; assert torch.cuda.is_available()' >/dev/null 2>&1") == 0;
}

std::map<std::uint64_t, TorchTimes> run_torch_peer(const std::string& key, const std::string& values,
                                                   const std::string& order, const std::vector<std::uint64_t>& sizes) {
  std::string list;
  for (auto n : sizes) list += (list.empty() ? "" : ",") + std::to_string(n);
  const std::string command = "python3 " + peer_path("torch_sort.py").string() + " --key " + key + " --values " +
                              values + " --order " + order + " --n " + list;
  std::map<std::uint64_t, TorchTimes> out;
  for (const auto& line : run_peer(command)) {
    const auto j = nlohmann::json::parse(line);
    if (!j.value("verified", false)) throw Error("the PyTorch peer did not verify its output at n=" + j["n"].dump());
    out[j["n"].get<std::uint64_t>()] = {j["host_to_host_ms"].get<double>(), j["gpu_ms"].get<double>()};
  }
  return out;
}

}  // namespace vkc::cli
