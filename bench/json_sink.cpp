#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "event_sinks.hpp"
#include "recorder/clock.hpp"

namespace legato::bench {
namespace {

class JsonSink final : public Sink {
 public:
  explicit JsonSink(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "w")) {
    std::fputs("[\n", f_);
  }
  const char* name() const override { return "json"; }
  double run(uint64_t intervals) override {
    const auto t0 = std::chrono::steady_clock::now();
    for (uint64_t i = 0; i < intervals; ++i) {
      std::fprintf(f_, "{\"name\":\"work\",\"ph\":\"B\",\"ts\":%llu,\"pid\":0,\"tid\":0},\n",
                   static_cast<unsigned long long>(rec::now().count));
      std::fprintf(f_, "{\"name\":\"work\",\"ph\":\"E\",\"ts\":%llu,\"pid\":0,\"tid\":0},\n",
                   static_cast<unsigned long long>(rec::now().count));
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  uint64_t close() override {
    std::fputs("{}]\n", f_);
    std::fclose(f_);
    return std::filesystem::file_size(path_);
  }

 private:
  std::string path_;
  std::FILE* f_;
};

}  // namespace

std::unique_ptr<Sink> make_json_sink(const std::string& path) {
  return std::make_unique<JsonSink>(path);
}

}  // namespace legato::bench
