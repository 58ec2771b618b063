// Runtime configuration as Legate users write it: LEGATE_CONFIG (or the
// legate driver's flags), parsed once at start.
#pragma once

#include <bitset>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace legato::rt {

// A problem a user can fix; what() says which flag and what to do (without
// the "LEGATE ERROR: " prefix, which the caller adds).
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What the machine offers, for the automatic settings.
struct MachineInfo {
  int64_t cores = 1;
  uint64_t memory_bytes = 0;  // MemAvailable
  uint64_t total_memory_bytes = 0;
  int64_t ranks_here = 1;            // ranks of this run on this machine (from the launcher)
  int64_t gpus = 0;                  // usable GPUs (asked of CUDA when a run wants GPUs)
  std::vector<uint64_t> gpu_memory;  // each one's memory, bytes
  std::string gpu_problem;  // why there are none, when known (else asked of CUDA when needed)
};
MachineInfo detect_machine();

// The settings' defaults, in one place: Config's initial values, the
// --help text and the automatic sizing all read them.
namespace defaults {
inline constexpr int64_t kUtility = 2;
inline constexpr int64_t kMinCpuChunk = 16384;  // elements
inline constexpr int64_t kMinGpuChunk = 65536;  // elements
inline constexpr int64_t kWindowSize = 1024;    // operations
inline constexpr const char* kProfileName = "legate";
// Automatic sizing: system memory is this share of the memory available to
// each rank on the node, and never less than kSysmemMiB (which is also the
// size without automatic sizing); a GPU's framebuffer pool is this share of
// its memory over the ranks sharing it (Legate's advice: leave 5-10% free);
// zero-copy memory is kZcmemMiB on runs with GPUs.
inline constexpr int64_t kSysmemPercent = 80;
inline constexpr int64_t kSysmemMiB = 256;
inline constexpr int64_t kFbmemPercent = 90;
inline constexpr int64_t kZcmemMiB = 128;
}  // namespace defaults

// Every option, in the order --help lists them.
enum class Option : uint8_t {
  Cpus,
  Utility,
  Gpus,
  Sysmem,
  Fbmem,
  Zcmem,
  Profile,
  ProfileName,
  Logdir,
  ProfileReport,
  Provenance,
  Nsys,
  ShowConfig,
  AutoConfig,
  MinCpuChunk,
  MinGpuChunk,
  WindowSize,
  RanksPerNode,
  Nodes,
  Help,
  Count
};

struct Config {
  int64_t cpus = 1;
  int64_t utility = defaults::kUtility;
  int64_t gpus = 0;
  int64_t sysmem = 0;  // MiB
  int64_t fbmem = 0;   // MiB per GPU
  int64_t zcmem = 0;   // MiB
  bool profile = false;
  std::string profile_name = defaults::kProfileName;
  std::string logdir = ".";
  bool provenance = false;
  bool profile_report = false;  // <logdir>/legate_prof/index.html at the end
  bool show_config = false;
  bool nsys = false;  // NVTX ranges around tasks and runtime work
  bool auto_config = true;
  int64_t min_cpu_chunk = defaults::kMinCpuChunk;
  int64_t min_gpu_chunk = defaults::kMinGpuChunk;
  int64_t window_size = defaults::kWindowSize;  // operations the top level may run ahead
  int64_t ranks_per_node = 1;                   // the run's shape; the launcher starts the ranks
  int64_t nodes = 1;
  bool help = false;
  int64_t gpus_visible = 0;  // CUDA devices on this machine (known when --gpus > 0)
  // Options the user set (the rest were chosen automatically).
  std::bitset<static_cast<size_t>(Option::Count)> given;
  bool was_given(Option o) const { return given.test(static_cast<size_t>(o)); }
  // Settings that were accepted but have no effect, one sentence each (rank 0
  // prints them as warnings when the run starts).
  std::vector<std::string> warnings;

  uint64_t sysmem_bytes() const { return static_cast<uint64_t>(sysmem) << 20; }
  uint64_t fbmem_bytes() const { return static_cast<uint64_t>(fbmem) << 20; }
  uint64_t zcmem_bytes() const { return static_cast<uint64_t>(zcmem) << 20; }
  int64_t ranks() const { return ranks_per_node * nodes; }
  nlohmann::json to_json() const;
  // The --show-config block: every setting, memory in bytes and MiB.
  std::string summary() const;
};

// Splits LEGATE_CONFIG into arguments: whitespace separates, '...' and "..."
// group (the quotes are removed). Throws ConfigError on an unterminated quote.
std::vector<std::string> split_config(std::string_view text);

// Parses flags (`--flag=value`, `--flag value`, boolean `--flag`), last one
// wins, then fills in the automatic values. `where` names the source for
// messages ("LEGATE_CONFIG", "the legate command line").
Config parse_config(const std::vector<std::string>& args, const MachineInfo& machine,
                    std::string_view where = "LEGATE_CONFIG");

// Every option with its default and meaning.
std::string config_help();

// Whether name is a runtime flag (for the legate driver), and whether it takes a value.
bool is_config_flag(std::string_view name, bool* takes_value = nullptr);

}  // namespace legato::rt
