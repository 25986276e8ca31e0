// sem::CoreState's local buffers and chip_local_buffer_bytes, the figure a run populates ahead
// (base/huge_pages.h populate_zeroed_async): it must be what the cores of a chip really take
// from allocate_zeroed, every buffer page-rounded, or the populated range would miss them.
#include <gtest/gtest.h>

#include "isa/sem/core_state.h"
#include "testbench/isa/sem_test_fixture.h"

namespace npu::semtest {
namespace {

size_t page_rounded_buffers(const sem::CoreState& c) {
  size_t n = 0;
  for (const sem::ZeroedBytes& b : c.buf) n += (b.size() + 4095) / 4096 * 4096;
  return n;
}

TEST(SemCoreState, ChipLocalBufferBytesIsWhatTheCoresTake) {
  for (isa::Arch arch : {isa::Arch::A2, isa::Arch::A5}) {
    const hw::HwConfig hw = test_hw(arch);
    const isa::MachineDesc m = hw.machine();
    for (int clusters : {1, 3}) {
      size_t taken = 0;
      for (int c = 0; c < clusters; ++c) {
        taken += page_rounded_buffers(sem::CoreState({c, isa::CoreType::Aic, 0}, m, {}, clusters));
        for (int s = 0; s < m.aiv_per_cluster; ++s)
          taken += page_rounded_buffers(sem::CoreState({c, isa::CoreType::Aiv, s}, m, {}, clusters));
      }
      EXPECT_EQ(sem::chip_local_buffer_bytes(m, clusters), taken) << clusters;
    }
  }
  // ascend910b by hand: 24 x (512 + 64 + 64 + 128 + 4 (1 KiB BiasTable) + 8 (7 KiB FB) KiB of the
  // AIC + 2 x 192 KiB of UB) = 24 x 1164 KiB.
  const hw::HwConfig b = hw::load_config(test::source_path("configs/ascend910b.yaml"));
  EXPECT_EQ(sem::chip_local_buffer_bytes(b.machine(), 24), size_t(24) * 1164 * 1024);
}

}  // namespace
}  // namespace npu::semtest
