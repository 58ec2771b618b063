#include "runtime/config.hpp"
#include "runtime/gpu/nvtx.hpp"
#include "runtime/gpu/probe.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>
#include <tuple>
#include <variant>

namespace legato::rt {
namespace {

// The machine with its GPUs, asked of CUDA only when the run wants more
// than it knows of (starting CUDA takes time).
MachineInfo with_gpus(const MachineInfo& machine, int64_t wanted) {
  MachineInfo m = machine;
  if (wanted == 0 || m.gpus > 0 || !m.gpu_problem.empty()) return m;
  const gpu::Probe p = gpu::probe();
  m.gpus = p.devices;
  m.gpu_memory = p.memory;
  m.gpu_problem = p.problem;
  return m;
}

// Ranks of this machine that share each GPU: GPU g of the rank with local
// index l is device (l * gpus + g) mod devices.
int64_t ranks_per_gpu(int64_t ranks_here, int64_t gpus, int64_t devices) {
  return devices == 0 ? 1 : std::max<int64_t>(1, (ranks_here * gpus + devices - 1) / devices);
}

using Member = std::variant<int64_t Config::*, bool Config::*, std::string Config::*>;

enum class Unit { Count, MiB, Elements, Ops, Bool, Text };

struct Flag {
  Option option;
  const char* name;  // without the leading --
  Member member;
  Unit unit;
  int64_t min, max;
  std::string default_text;
  std::string help;
};

constexpr int64_t kMaxMiB = int64_t{1} << 30;  // 1 PiB

std::string text(int64_t v) {
  return std::to_string(v);
}

// One row per Option, in its order (checked when the table is built).
const std::vector<Flag>& flags() {
  using namespace defaults;
  static const std::vector<Flag> table = [] {
    std::vector<Flag> t = {
        {Option::Cpus, "cpus", &Config::cpus, Unit::Count, 1, 1024,
         "auto: cores / ranks-per-node - utility, at least 1",
         "CPU worker threads (lanes c0, c1, ...)"},
        {Option::Utility, "utility", &Config::utility, Unit::Count, 1, 256, text(kUtility),
         "utility threads for dependence analysis, mapping and instance collection (u0, ...)"},
        {Option::Gpus, "gpus", &Config::gpus, Unit::Count, 0, 64, "0", "GPUs to use"},
        {Option::Sysmem, "sysmem", &Config::sysmem, Unit::MiB, 1, kMaxMiB,
         "auto: " + text(kSysmemPercent) + "% of available memory / ranks-per-node",
         "system memory pool for array instances, in MiB"},
        {Option::Fbmem, "fbmem", &Config::fbmem, Unit::MiB, 0, kMaxMiB,
         "auto: " + text(kFbmemPercent) +
             "% of the GPU's memory / ranks sharing it; 0 without GPUs",
         "framebuffer (GPU memory) pool per GPU, in MiB"},
        {Option::Zcmem, "zcmem", &Config::zcmem, Unit::MiB, 0, kMaxMiB,
         text(kZcmemMiB) + " with GPUs, else 0",
         "zero-copy (pinned host memory the GPUs can read) pool, in MiB; host-side instances of "
         "GPU runs go there first"},
        {Option::Profile, "profile", &Config::profile, Unit::Bool, 0, 1, "false",
         "record a trace: <logdir>/<profile-name>_<rank>.prof"},
        {Option::ProfileName, "profile-name", &Config::profile_name, Unit::Text, 0, 0, kProfileName,
         "prefix of the trace files"},
        {Option::Logdir, "logdir", &Config::logdir, Unit::Text, 0, 0, "the current directory",
         "directory for trace files (created if missing)"},
        {Option::ProfileReport, "profile-report", &Config::profile_report, Unit::Bool, 0, 1,
         "the value of --profile",
         "write the HTML report <logdir>/legate_prof/index.html at the end of the run"},
        {Option::Provenance, "provenance", &Config::provenance, Unit::Bool, 0, 1,
         "the value of --profile", "record the file:line of every API call in the trace"},
        {Option::Nsys, "nsys", &Config::nsys, Unit::Bool, 0, 1, "false",
         "mark point tasks and runtime work as NVTX ranges, for Nsight Systems (nsys profile)"},
        {Option::ShowConfig, "show-config", &Config::show_config, Unit::Bool, 0, 1, "false",
         "print the configuration, then run"},
        {Option::AutoConfig, "auto-config", &Config::auto_config, Unit::Bool, 0, 1, "true",
         "size unset resources from the machine (0: 1 CPU, " + text(kSysmemMiB) +
             " MiB system memory)"},
        {Option::MinCpuChunk, "min-cpu-chunk", &Config::min_cpu_chunk, Unit::Elements, 1,
         int64_t{1} << 40, text(kMinCpuChunk),
         "fewest elements a CPU point task gets when an operation is split"},
        {Option::MinGpuChunk, "min-gpu-chunk", &Config::min_gpu_chunk, Unit::Elements, 1,
         int64_t{1} << 40, text(kMinGpuChunk),
         "fewest elements a GPU point task gets when an operation is split"},
        {Option::WindowSize, "window-size", &Config::window_size, Unit::Ops, 1, int64_t{1} << 20,
         text(kWindowSize), "operations the program may issue ahead of their completion"},
        {Option::RanksPerNode, "ranks-per-node", &Config::ranks_per_node, Unit::Count, 1, 1024, "1",
         "ranks on each node (started by the legate driver's --launcher, or by mpirun/srun)"},
        {Option::Nodes, "nodes", &Config::nodes, Unit::Count, 1, 65536, "1",
         "nodes the ranks run on"},
        {Option::Help, "help", &Config::help, Unit::Bool, 0, 1, "", "list these options and exit"},
    };
    if (t.size() != static_cast<size_t>(Option::Count))
      throw std::logic_error("the option table misses an Option");
    for (size_t i = 0; i < t.size(); ++i) {
      if (static_cast<size_t>(t[i].option) != i)
        throw std::logic_error(std::string("option --") + t[i].name + " is out of Option's order");
    }
    return t;
  }();
  return table;
}

const Flag* find_flag(std::string_view name) {
  for (const Flag& f : flags()) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] =
          std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool parse_bool(std::string_view text, bool& out) {
  const std::string v = lower(text);
  if (v == "1" || v == "t" || v == "true" || v == "y" || v == "yes") {
    out = true;
    return true;
  }
  if (v == "0" || v == "f" || v == "false" || v == "n" || v == "no") {
    out = false;
    return true;
  }
  return false;
}

const char* unit_words(Unit u) {
  switch (u) {
    case Unit::MiB:
      return " MiB";
    case Unit::Elements:
      return " elements";
    case Unit::Ops:
      return " operations";
    default:
      return "";
  }
}

void set_value(Config& c, const Flag& f, std::string_view value, std::string_view where) {
  const std::string flag = std::string("--") + f.name;
  const std::string in = " in " + std::string(where);
  if (f.unit == Unit::Bool) {
    bool b = false;
    if (!parse_bool(value, b)) {
      throw ConfigError("invalid value '" + std::string(value) + "' for " + flag + in +
                        ": expected 1, t, true, y, yes, 0, f, false, n or no");
    }
    c.*std::get<bool Config::*>(f.member) = b;
  } else if (f.unit == Unit::Text) {
    if (value.empty())
      throw ConfigError(flag + in + " needs a value, e.g. " + flag + "=" + f.default_text);
    if (f.option == Option::ProfileName && value.find('/') != std::string_view::npos) {
      throw ConfigError("invalid value '" + std::string(value) + "' for " + flag + in +
                        ": use a plain file name prefix (put the directory in --logdir)");
    }
    c.*std::get<std::string Config::*>(f.member) = std::string(value);
  } else {
    const std::string range =
        std::to_string(f.min) + " to " + std::to_string(f.max) + unit_words(f.unit);
    const bool digits =
        !value.empty() && value.size() <= 18 &&
        std::all_of(value.begin(), value.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
    if (!digits) {
      const bool negative = !value.empty() && value[0] == '-';
      throw ConfigError("invalid value '" + std::string(value) + "' for " + flag + in +
                        ": expected " + (negative ? "a non-negative" : "a whole") +
                        " number from " + range);
    }
    const int64_t v = std::stoll(std::string(value));
    if (v < f.min || v > f.max) {
      throw ConfigError("value " + std::string(value) + " for " + flag + in +
                        " is out of range: use " + range);
    }
    c.*std::get<int64_t Config::*>(f.member) = v;
  }
}

std::string mib_text(int64_t mib) {
  return std::to_string(static_cast<uint64_t>(mib) << 20) + " bytes (" + std::to_string(mib) +
         " MiB)";
}

}  // namespace

MachineInfo detect_machine() {
  MachineInfo m;
  m.cores = std::max<int64_t>(1, static_cast<int64_t>(std::thread::hardware_concurrency()));
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  uint64_t kb = 0;
  std::string unit;
  while (meminfo >> key >> kb >> unit) {
    if (key == "MemAvailable:") m.memory_bytes = kb << 10;
    if (key == "MemTotal:") m.total_memory_bytes = kb << 10;
  }
  if (m.memory_bytes == 0) m.memory_bytes = m.total_memory_bytes;
  // Ranks a launcher started on this machine (they share it).
  for (const char* name :
       {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "SLURM_NTASKS_PER_NODE"}) {
    const char* v = std::getenv(name);
    if (v != nullptr && std::atoll(v) > 0) {
      m.ranks_here = std::atoll(v);  // SLURM's "4(x2)" reads as 4
      break;
    }
  }
  m.gpus = 0;  // asked of CUDA only when a run wants GPUs
  return m;
}

std::vector<std::string> split_config(std::string_view text) {
  std::vector<std::string> args;
  std::string cur;
  bool in_arg = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\'' || c == '"') {
      const size_t close = text.find(c, i + 1);
      if (close == std::string_view::npos) {
        throw ConfigError(std::string("unterminated ") + c + " in LEGATE_CONFIG at position " +
                          std::to_string(i) + ": close the quote");
      }
      cur.append(text.substr(i + 1, close - i - 1));
      in_arg = true;
      i = close;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (in_arg) args.push_back(std::move(cur));
      cur.clear();
      in_arg = false;
    } else {
      cur.push_back(c);
      in_arg = true;
    }
  }
  if (in_arg) args.push_back(std::move(cur));
  return args;
}

bool is_config_flag(std::string_view name, bool* takes_value) {
  if (name.rfind("--", 0) != 0) return false;
  name.remove_prefix(2);
  name = name.substr(0, name.find('='));
  const Flag* f = find_flag(name);
  if (f != nullptr && takes_value != nullptr) *takes_value = f->unit != Unit::Bool;
  return f != nullptr;
}

Config parse_config(const std::vector<std::string>& args, const MachineInfo& machine,
                    std::string_view where) {
  Config c;
  const std::string in = " in " + std::string(where);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.rfind("--", 0) != 0 || arg.size() == 2) {
      throw ConfigError("unexpected argument '" + arg + "'" + in + ": options look like --cpus=4");
    }
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    const Flag* f = find_flag(name);
    if (f == nullptr) {
      std::string hint;
      size_t best = 3;
      for (const Flag& g : flags()) {
        const size_t d = edit_distance(name, g.name);
        if (d < best) {
          best = d;
          hint = std::string(" (did you mean --") + g.name + "?)";
        }
      }
      throw ConfigError("unknown option --" + name + in + hint);
    }
    std::string value;
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
    } else if (f->unit == Unit::Bool) {
      bool b;
      const bool next_is_bool = i + 1 < args.size() && parse_bool(args[i + 1], b);
      value = next_is_bool ? args[++i] : "true";
    } else {
      if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0) {
        throw ConfigError("--" + name + in + " needs a value, e.g. --" + name + "=" +
                          (f->unit == Unit::Text ? f->default_text
                                                 : std::to_string(std::max<int64_t>(f->min, 1))));
      }
      value = args[++i];
    }
    set_value(c, *f, value, where);
    c.given.set(static_cast<size_t>(f->option));
  }
  // Automatic values for what was not given.
  using namespace defaults;
  const auto given = [&](Option o) { return c.was_given(o); };
  // Ranks on one node share its cores and memory.
  const int64_t share = given(Option::RanksPerNode) ? c.ranks_per_node : machine.ranks_here;
  const MachineInfo gpus_here = with_gpus(machine, c.help ? 0 : c.gpus);
  const int64_t gpu_share = ranks_per_gpu(share, c.gpus, gpus_here.gpus);
  c.gpus_visible = gpus_here.gpus;
  // The smallest of the machine's GPUs (the ranks take them in turn).
  const uint64_t gpu_memory =
      gpus_here.gpu_memory.empty()
          ? 0
          : *std::min_element(gpus_here.gpu_memory.begin(), gpus_here.gpu_memory.end());
  const int64_t gpu_mib = static_cast<int64_t>(gpu_memory >> 20) / gpu_share;
  // Legate's advice: leave 5-10% of a GPU's memory free.
  const int64_t fbmem_auto = gpu_mib * kFbmemPercent / 100;
  if (!given(Option::Fbmem)) c.fbmem = c.gpus > 0 ? fbmem_auto : 0;
  if (!given(Option::Cpus))
    c.cpus = c.auto_config ? std::max<int64_t>(1, machine.cores / share - c.utility) : 1;
  if (!given(Option::Sysmem)) {
    const uint64_t mib = (machine.memory_bytes >> 20) / static_cast<uint64_t>(share);
    c.sysmem = c.auto_config
                   ? std::max<int64_t>(kSysmemMiB, static_cast<int64_t>(mib) * kSysmemPercent / 100)
                   : kSysmemMiB;
  }
  if (!given(Option::Zcmem)) c.zcmem = c.gpus > 0 ? kZcmemMiB : 0;
  // GPU memory without GPUs: nothing would use it, so it is not set aside.
  for (auto [option, flag, member] : {std::tuple{Option::Fbmem, "fbmem", &Config::fbmem},
                                      std::tuple{Option::Zcmem, "zcmem", &Config::zcmem}}) {
    if (c.gpus > 0 || !given(option) || c.*member == 0) continue;
    c.warnings.push_back("--" + std::string(flag) + " " + std::to_string(c.*member) + in +
                         " has no effect: this run uses no GPUs (--gpus 0); add --gpus N to use "
                         "it, or leave it out");
    c.*member = 0;
  }
  if (!given(Option::Provenance)) c.provenance = c.profile;
  if (!given(Option::ProfileReport)) c.profile_report = c.profile;
  if (c.help) return c;
  if (c.nsys && !gpu::nvtx_available()) {
    throw ConfigError("--nsys" + in +
                      ": this build of Legato has no NVTX (it was built without the CUDA toolkit); "
                      "rebuild with the toolkit under /usr/local/cuda, or leave out --nsys");
  }
  if (c.gpus > gpus_here.gpus) {
    const std::string why =
        gpus_here.gpu_problem.empty()
            ? "CUDA finds " + std::to_string(gpus_here.gpus) + " on this machine"
            : gpus_here.gpu_problem;
    throw ConfigError("--gpus " + std::to_string(c.gpus) + in + " asks for " +
                      std::to_string(c.gpus) + " GPU(s) but " + std::to_string(gpus_here.gpus) +
                      " are available (" + why + "); use --gpus=" + std::to_string(gpus_here.gpus));
  }
  if (c.gpus > 0 && c.fbmem > gpu_mib) {
    throw ConfigError("--fbmem " + std::to_string(c.fbmem) + in + " is more than the " +
                      std::to_string(gpu_mib) + " MiB each rank has of its GPU's memory (" +
                      std::to_string(gpu_memory >> 20) + " MiB, shared by " +
                      std::to_string(gpu_share) + " rank(s)); leave 5-10% free: use --fbmem " +
                      std::to_string(fbmem_auto) + " or less");
  }
  if (machine.total_memory_bytes > 0 && c.sysmem_bytes() > machine.total_memory_bytes) {
    throw ConfigError(
        "--sysmem " + std::to_string(c.sysmem) + in + " is more than this machine's " +
        std::to_string(machine.total_memory_bytes >> 20) + " MiB of memory; ask for less");
  }
  return c;
}

nlohmann::json Config::to_json() const {
  nlohmann::json j;
  for (const Flag& f : flags()) {
    if (f.option == Option::Help) continue;
    std::visit([&](auto m) { j[f.name] = this->*m; }, f.member);
  }
  return j;
}

std::string Config::summary() const {
  std::ostringstream out;
  out << "Legato configuration (" << (auto_config ? "automatic" : "manual") << " sizing):\n";
  for (const Flag& f : flags()) {
    const std::string_view name = f.name;
    if (f.option == Option::Help) continue;
    std::string value;
    if (f.unit == Unit::MiB) {
      value = mib_text(this->*std::get<int64_t Config::*>(f.member));
    } else {
      std::visit(
          [&](auto m) {
            using V = std::remove_cvref_t<decltype(this->*m)>;
            if constexpr (std::is_same_v<V, bool>) {
              value = (this->*m) ? "true" : "false";
            } else if constexpr (std::is_same_v<V, std::string>) {
              value = this->*m;
            } else {
              value = std::to_string(this->*m) + unit_words(f.unit);
            }
          },
          f.member);
    }
    out << "  " << f.name << std::string(16 - name.size(), ' ') << value
        << (was_given(f.option) ? "" : "  (default)") << "\n";
  }
  return out.str();
}

std::string config_help() {
  std::ostringstream out;
  out << "Legato runtime options, read from LEGATE_CONFIG (or given to the legate driver).\n"
         "Forms: --flag=value, --flag value; booleans also --flag, --flag=1|t|true|y|yes,\n"
         "--flag=0|f|false|n|no. A repeated flag: the last one wins.\n\n";
  for (const Flag& f : flags()) {
    std::string left = std::string("--") + f.name;
    if (f.unit != Unit::Bool) left += f.unit == Unit::Text ? " TEXT" : " N";
    out << "  " << left << std::string(left.size() < 22 ? 22 - left.size() : 1, ' ') << f.help;
    if (!f.default_text.empty()) out << " [default: " << f.default_text << "]";
    out << "\n";
  }
  return out.str();
}

}  // namespace legato::rt
