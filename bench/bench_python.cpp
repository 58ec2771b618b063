// Python front end benchmark, every figure against a baseline in the same run:
//   - issuing one operation (a += 1.0 on a small array) from Python against
//     the same loop in C++ (python_over_cpp_launch, and the µs per operation);
//   - the seeds' Example 1 (both versions) from Python against the C++
//     examples at the same size (python_over_cpp_example1*), by the time the
//     programs print (runtime start-up and interpreter start not counted);
//   - the efficient Example 1 on Legato against plain NumPy running the same
//     script (its first line changed to import numpy) on Debian's interpreter
//     (legato_over_numpy_example1_efficient: Legato's time over NumPy's,
//     below 1 when Legato is faster);
//   - what --profile costs a Python run (median of back-to-back pairs).
// Prints `RESULT <metric> <value> <unit>` lines; figures in bench/README.md.
//
//   bench_python [N] [REPEATS]     (N: elements of Example 1, 10 M by default)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arrays/array.hpp"
#include "result.hpp"

using legato::bench::result;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Runs a shell command and returns its standard output; throws on failure.
std::string output_of(const std::string& cmd) {
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) throw std::runtime_error("cannot run: " + cmd);
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  if (pclose(p) != 0) throw std::runtime_error("failed: " + cmd + "\n" + out);
  return out;
}

// The number after `label` in a program's output ("time = 12.5 ms").
double field(const std::string& out, const std::string& label) {
  const size_t at = out.find(label);
  if (at == std::string::npos) throw std::runtime_error("no '" + label + "' in: " + out);
  return std::strtod(out.c_str() + at + label.size(), nullptr);
}

struct Paths {
  std::string bin, src, python, pythonpath;
};

double cpp_issue_us(int count) {
  using namespace legato::rt;
  start();
  Array a = zeros(16);
  for (int i = 0; i < 200; ++i) a += 1.0;
  (void)a.sum().item();
  const auto t0 = Clock::now();
  for (int i = 0; i < count; ++i) a += 1.0;
  const double issue = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
  (void)a.sum().item();
  finish();
  return issue / count;
}

double program_ms(const std::string& command) {
  return field(output_of(command + " 2>/dev/null"), "time = ");
}

}  // namespace

int main(int argc, char** argv) {
  const long n = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 10'000'000;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  if (n <= 0 || repeats <= 0) {
    std::fprintf(stderr, "usage: bench_python [N] [REPEATS]\n");
    return 2;
  }
  Paths p{LEGATO_BIN_DIR, LEGATO_SOURCE_DIR, LEGATO_PYTHON_EXECUTABLE, LEGATO_PYTHON_DIR};
  const char* config = std::getenv("LEGATE_CONFIG");
  const std::string cpus = config != nullptr ? config : "--cpus 2";
  setenv("LEGATE_CONFIG", cpus.c_str(), 1);
  setenv("LEGATO_SEED", "42", 1);
  const std::string py = "PYTHONPATH=" + p.pythonpath + " " + p.python + " ";
  std::printf("# LEGATE_CONFIG=%s, Example 1 at %ld elements, %d repeats\n", cpus.c_str(), n,
              repeats);

  // Issuing one operation.
  const int count = 20000;
  std::vector<double> cpp, python, python_total;
  for (int r = 0; r < repeats; ++r) {
    cpp.push_back(cpp_issue_us(count));
    const std::string out =
        output_of(py + p.src + "/bench/python/launch.py " + std::to_string(count));
    python.push_back(field(out, "issue_us "));
    python_total.push_back(field(out, "total_us "));
  }
  result("cpp_launch_us", median(cpp), "us");
  result("python_launch_us", median(python), "us");
  result("python_launch_until_done_us", median(python_total), "us");
  result("python_over_cpp_launch", median(python) / median(cpp), "x");

  // Example 1 from Python against C++.
  const std::string examples = p.src + "/examples/python/";
  const std::string size = " " + std::to_string(n);
  for (const auto& [py_name, cpp_name, metric] :
       {std::tuple{"example1_inefficient", "chunked_update",
                   "python_over_cpp_example1_inefficient"},
        std::tuple{"example1_efficient", "vectorized_update", "python_over_cpp_example1"}}) {
    std::vector<double> ours, theirs;
    for (int r = 0; r < repeats; ++r) {
      ours.push_back(program_ms(py + examples + py_name + ".py" + size));
      theirs.push_back(program_ms(p.bin + "/" + cpp_name + " --n" + size));
    }
    result(std::string(metric) + "_python_ms", median(ours), "ms");
    result(std::string(metric) + "_cpp_ms", median(theirs), "ms");
    result(metric, median(ours) / median(theirs), "x");
  }

  // The same efficient script on NumPy.
  const fs::path tmp = fs::temp_directory_path() / "legato_bench_python";
  fs::create_directories(tmp);
  {
    std::ifstream in(examples + "example1_efficient.py");
    std::ofstream out(tmp / "example1_numpy.py");
    for (std::string line; std::getline(in, line);)
      out << (line == "import legato.numpy as np" ? "import numpy as np" : line) << "\n";
  }
  std::vector<double> legato_ms, numpy_ms;
  for (int r = 0; r < repeats; ++r) {
    legato_ms.push_back(program_ms(py + examples + "example1_efficient.py" + size));
    numpy_ms.push_back(program_ms(p.python + " " + (tmp / "example1_numpy.py").string() + size));
  }
  result("numpy_example1_efficient_ms", median(numpy_ms), "ms");
  result("legato_over_numpy_example1_efficient", median(legato_ms) / median(numpy_ms), "x");

  // What --profile costs a Python run (process wall time, the report not
  // written), for each version of Example 1 (the C++ targets: 2 % for the
  // efficient one, 5 % for the one of thousands of tiny tasks).
  const std::string run_py = "cd " + tmp.string() + " && " + py;
  for (const char* version : {"efficient", "inefficient"}) {
    std::vector<double> ratios;
    for (int r = 0; r < repeats; ++r) {
      const auto time_of = [&](const std::string& flags) {
        setenv("LEGATE_CONFIG", (cpus + flags).c_str(), 1);
        const auto t0 = Clock::now();
        output_of(run_py + examples + "example1_" + version + ".py" + size + " > /dev/null");
        return std::chrono::duration<double>(Clock::now() - t0).count();
      };
      const double plain = time_of("");
      const double profiled = time_of(" --profile --profile-report=false");
      ratios.push_back(profiled / plain);
    }
    result(std::string("python_profile_overhead_") + version + "_pct", (median(ratios) - 1) * 100,
           "%");
  }
  setenv("LEGATE_CONFIG", cpus.c_str(), 1);
  fs::remove_all(tmp);
  return 0;
}
