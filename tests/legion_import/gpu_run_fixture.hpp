// A synthetic 2-node GPU run written with the test-only Legion log writer
// (legion_import/testing): no real GPU log exists, so its known answers are
// the ones this fixture put in. Used by test_synthetic.cpp and by the report
// and viewer tests.
#pragma once

#include <string>
#include <vector>

#include "legion_import/testing/legion_log_writer.hpp"

namespace legato::legion::testing {

// Per node n (0 and 1), times in ns:
// * u0 (Utility): "Trigger Operation Mapping" (op 10+n) 500..3000 with a
//   map_task mapper call 600..2600, a runtime call 2000..2200 inside that
//   call, and a MetaWaitInfo 1000..1800 inside the mapper call: busy 1700.
// * c1 (CPU): cpu_task (op 10+n) 3100..13100 with a TaskWaitInfo
//   5000..7000 and a runtime call 8000..8500: busy 8000.
// * c2 (CPU): cpu_task (op 40+n) 4000..10000: busy 6000.
// * g3 (GPU): gpu_task op 20+n 13500..20500 (kernel 14000..19000) and op
//   30+n 21500..25500 (kernel 22000..30000): host busy 11000, device 13000.
// * sysmem0 (256 MiB): 4096 B. zcmem1 (64 MiB): 1 MiB 2000..26000 and
//   2 MiB 5000..8000 (peak 3 MiB). fbmem2 (16 GiB): 64 MiB 10000..31000,
//   32 MiB 12000..20000, 16 MiB 21000..30000 (peak 96 MiB).
// * copies: zcmem1 -> fbmem2 10500..11500 (host to device), fbmem2 ->
//   zcmem1 20600..21000 (device to host), a gather zcmem1 -> fbmem2
//   14000..15000, a scatter into zcmem1 16000..16500, a fill of fbmem2
//   11000..11200; node 0 only: fbmem2 -> node 1's fbmem2 25000..27000
//   (network) and a dependent partitioning 4000..6000.
// * critical path: each gpu_task op 20+n is gated by a merge of cpu_task
//   op 10+n (stop 13100) and op 40+n (stop 10000) (1008; in 1006 its
//   creator, the meta task on u0). Node 1's cpu_task op 11 was created by
//   node 0's meta task (creator) after its own precondition triggered
//   (1008: EventTriggerInfo at 2000, before its create 2500). Node 1's
//   gpu_task op 31 is gated (1008) by a merge of node 0's gpu_task op 20
//   (stop 20500, in the other file) and its own cpu_task op 41 (stop 10000).
// In V2023 and V2020 each node's file describes both nodes' processors and
// memories, twice, as Legion of 2023 and older did; in V2023 each operation
// gives its provenance as text ("prog.py:<op>$OpCode,ADD"); in V2020 copies
// and fills name their memories in CopyInfo / FillInfo (a gather or scatter
// is a copy there, and a fill has no size).
struct GpuRunFiles {
  std::string node0, node1;
};
GpuRunFiles write_gpu_run(const std::string& dir, LogVersion version, bool gzip = false);

}  // namespace legato::legion::testing
