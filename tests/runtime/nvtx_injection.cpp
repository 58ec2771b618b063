// A stand-in for Nsight Systems in tests: an NVTX injection library (what
// nsys loads through NVTX_INJECTION64_PATH) that counts the ranges pushed
// by name, on all threads, and checks that pops match pushes. At exit it
// writes "pushes <n>", "pops <n>" and "range <name> <count>" lines to the
// file named by LEGATO_NVTX_LOG.
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

namespace {

std::mutex g_mu;
std::map<std::string, long>* g_ranges = new std::map<std::string, long>;  // lives to exit
long g_pushes = 0, g_pops = 0;

int push(const char* message) {
  std::lock_guard lock(g_mu);
  ++g_pushes;
  ++(*g_ranges)[message != nullptr ? message : ""];
  return 0;
}

int pop() {
  std::lock_guard lock(g_mu);
  ++g_pops;
  return 0;
}

void write_log() {
  const char* path = std::getenv("LEGATO_NVTX_LOG");
  if (path == nullptr) return;
  FILE* f = std::fopen(path, "w");
  if (f == nullptr) return;
  std::lock_guard lock(g_mu);
  std::fprintf(f, "pushes %ld\npops %ld\n", g_pushes, g_pops);
  for (const auto& [name, n] : *g_ranges) std::fprintf(f, "range %s %ld\n", name.c_str(), n);
  std::fclose(f);
}

}  // namespace

extern "C" int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table) {
  const auto* callbacks =
      static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
  if (callbacks == nullptr) return 0;
  NvtxFunctionTable table = nullptr;
  unsigned int size = 0;
  if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size) == 0 ||
      size <= NVTX_CBID_CORE_RangePop) {
    return 0;
  }
  *table[NVTX_CBID_CORE_RangePushA] = reinterpret_cast<NvtxFunctionPointer>(&push);
  *table[NVTX_CBID_CORE_RangePop] = reinterpret_cast<NvtxFunctionPointer>(&pop);
  std::atexit(write_log);
  return 1;
}
