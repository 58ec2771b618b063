// OTF2 as its users write traces: one event writer per location, Enter/Leave
// records with the caller's timestamps, buffers flushed to the archive.
#include <otf2/otf2.h>

#include <chrono>
#include <filesystem>
#include <memory>

#include "event_sinks.hpp"
#include "recorder/clock.hpp"

namespace legato::bench {
namespace {

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) {
  return OTF2_FLUSH;
}
OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef) {
  return rec::now().count;
}

class Otf2Sink final : public Sink {
 public:
  explicit Otf2Sink(const std::string& dir) : dir_(dir) {
    archive_ = OTF2_Archive_Open(dir.c_str(), "trace", OTF2_FILEMODE_WRITE, 1024 * 1024,
                                 4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    static const OTF2_FlushCallbacks callbacks = {pre_flush, post_flush};
    OTF2_Archive_SetFlushCallbacks(archive_, &callbacks, nullptr);
    OTF2_Archive_SetSerialCollectiveCallbacks(archive_);
    OTF2_Archive_OpenEvtFiles(archive_);
    writer_ = OTF2_Archive_GetEvtWriter(archive_, 0);
    first_ = rec::now().count;
  }
  const char* name() const override { return "otf2"; }
  double run(uint64_t intervals) override {
    const auto t0 = std::chrono::steady_clock::now();
    for (uint64_t i = 0; i < intervals; ++i) {
      OTF2_EvtWriter_Enter(writer_, nullptr, rec::now().count, 0);
      OTF2_EvtWriter_Leave(writer_, nullptr, rec::now().count, 0);
    }
    events_ += 2 * intervals;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  uint64_t close() override {
    const uint64_t last = rec::now().count;
    OTF2_Archive_CloseEvtWriter(archive_, writer_);
    OTF2_Archive_CloseEvtFiles(archive_);
    OTF2_GlobalDefWriter* defs = OTF2_Archive_GetGlobalDefWriter(archive_);
    OTF2_GlobalDefWriter_WriteClockProperties(defs, 1'000'000'000, first_, last - first_,
                                              OTF2_UNDEFINED_TIMESTAMP);
    OTF2_GlobalDefWriter_WriteString(defs, 0, "");
    OTF2_GlobalDefWriter_WriteString(defs, 1, "work");
    OTF2_GlobalDefWriter_WriteString(defs, 2, "node");
    OTF2_GlobalDefWriter_WriteString(defs, 3, "thread 0");
    OTF2_GlobalDefWriter_WriteRegion(defs, 0, 1, 1, 0, OTF2_REGION_ROLE_FUNCTION,
                                     OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, 0, 0, 0);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, 0, 2, 2, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    OTF2_GlobalDefWriter_WriteLocationGroup(defs, 0, 2, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocation(defs, 0, 3, OTF2_LOCATION_TYPE_CPU_THREAD, events_, 0);
    OTF2_Archive_CloseGlobalDefWriter(archive_, defs);
    OTF2_Archive_Close(archive_);
    uint64_t bytes = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir_)) {
      if (e.is_regular_file()) bytes += e.file_size();
    }
    return bytes;
  }

 private:
  std::string dir_;
  OTF2_Archive* archive_;
  OTF2_EvtWriter* writer_;
  uint64_t first_ = 0, events_ = 0;
};

}  // namespace

std::unique_ptr<Sink> make_otf2_sink(const std::string& dir) {
  return std::make_unique<Otf2Sink>(dir);
}

}  // namespace legato::bench
