// libFuzzer target: arbitrary bytes as a Legion Prof log (plain or gzip),
// through the importer and the profile model, as legate_prof loads one.
// Seeds: the real logs in tests/legion_import/data/, plain and gzip (run_fuzz.sh).
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "legion_import/import.hpp"
#include "load/load.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace legato;
  // The importer reads files: an in-memory one.
  const int fd = memfd_create("fuzz_legion", 0);
  if (fd < 0) return 0;
  for (size_t done = 0; done < size;) {
    const ssize_t n = write(fd, data + done, size - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  if (legion::is_legion_log(path)) {
    // With a core to spare or not (a gzip input inflated on a thread of
    // its own, a plain one's tables prefaulted by one), by the input's length.
    const auto spare = analysis::ReadHints::with_spare_core(size % 2 == 1);
    std::vector<analysis::RankTrace> traces{
        legion::import_log(path, legion::Links::FileAlone, spare)};
    try {
      const analysis::Profile p = analysis::build_profile(std::move(traces));
      (void)p.items.size();
    } catch (const analysis::LoadError&) {
      // Nothing readable: refused with a reason, the expected outcome.
    }
  }
  close(fd);
  return 0;
}
