// The CUDA backend's device queries: they run in every CUDA build, and without a device they
// must report none rather than fail.
#ifdef PERFTKIT_HAVE_CUDA

#include <gtest/gtest.h>

#include <vector>

#include "common/cuda_devices.hpp"

namespace perftkit {
namespace {

TEST(CudaBackend, DeviceCountNeverThrows) {
  int count = -1;
  EXPECT_NO_THROW(count = cuda::device_count());
  EXPECT_GE(count, 0);
  EXPECT_EQ(count, cuda::device_count());  // a failed query leaves no sticky error behind
}

TEST(CudaBackend, DevicesListsEveryDevice) {
  std::vector<cuda::DeviceInfo> list;
  ASSERT_NO_THROW(list = cuda::devices());
  ASSERT_EQ(static_cast<int>(list.size()), cuda::device_count());
  for (std::size_t i = 0; i < list.size(); ++i) {
    EXPECT_EQ(list[i].index, static_cast<int>(i));
    EXPECT_FALSE(list[i].name.empty());
    EXPECT_GT(list[i].sm_count, 0);
    EXPECT_GT(list[i].total_memory, 0u);
    EXPECT_LE(list[i].free_memory, list[i].total_memory);
    EXPECT_GE(list[i].cc_major, 1);
  }
}

}  // namespace
}  // namespace perftkit

#endif  // PERFTKIT_HAVE_CUDA
