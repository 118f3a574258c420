// Device is a movable value: containers and optionals of devices compile and
// behave (vector::erase and optional reassignment move-assign), and a Device
// assigned over leaves its board as its destructor would: lease released.
#include <gtest/gtest.h>

#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "fake_board.hpp"
#include "lightrail/device.hpp"
#include "test_schedules.hpp"

namespace lightrail {
namespace {

using test::FakeBoard;
using test::FakeTransport;

static_assert(std::is_nothrow_move_constructible_v<Device>);
static_assert(std::is_nothrow_move_assignable_v<Device>);
static_assert(!std::is_copy_constructible_v<Device> && !std::is_copy_assignable_v<Device>);

Device open_fake(FakeBoard& board) { return Device(std::make_unique<FakeTransport>(board)); }

TEST(DeviceMove, VectorEraseKeepsEachDeviceOnItsBoard) {
  FakeBoard a, b, c;
  std::vector<Device> devices;
  devices.push_back(open_fake(a));
  devices.push_back(open_fake(b));
  devices.push_back(open_fake(c));
  devices[1].claim();
  const uint32_t b_token = devices[1].lease_token();
  devices.erase(devices.begin());  // b and c move-assigned one slot down
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[0].lease_token(), b_token);
  EXPECT_EQ(b.lease_owner, b_token) << "moving b's Device kept its lease";
  devices[1].claim();
  EXPECT_EQ(c.lease_owner, devices[1].lease_token());
  EXPECT_EQ(a.lease_owner, 0u);
}

TEST(DeviceMove, ReassigningAnOptionalReleasesTheLeaseOfTheDeviceReplaced) {
  FakeBoard a, b;
  std::optional<Device> dev;
  dev.emplace(open_fake(a));
  dev->claim();
  ASSERT_NE(a.lease_owner, 0u);
  dev = open_fake(b);  // move-assigns over the Device that holds a's lease
  EXPECT_EQ(a.lease_owner, 0u) << "the replaced Device's lease is released, as its destructor would";
  dev->claim();
  EXPECT_EQ(b.lease_owner, dev->lease_token());
  dev.reset();
  EXPECT_EQ(b.lease_owner, 0u);
}

TEST(DeviceMove, AMovedFromDeviceLeavesTheLeaseToItsNewOwner) {
  FakeBoard a;
  std::optional<Device> kept;
  uint32_t token = 0;
  {
    Device first = open_fake(a);
    first.claim();
    token = first.lease_token();
    kept.emplace(std::move(first));
    Device second = std::move(*kept);  // moved twice: the moved-from ones are destroyed below
    *kept = std::move(second);
  }
  EXPECT_EQ(a.lease_owner, token) << "a moved-from Device released a lease it no longer holds";
  kept->stage(test::two_shifts());  // the Device that holds the lease still writes the board
  kept.reset();
  EXPECT_EQ(a.lease_owner, 0u);
}

}  // namespace
}  // namespace lightrail
