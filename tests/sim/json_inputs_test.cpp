// The co-simulation's JSON files go through the strict reader
// (lightrail::read_json_file): an impairment profile with a key written
// twice is refused (it used to load, the last value winning), naming the
// file and the key.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include "clock/impairment_profile.hpp"

namespace lightrail::sim::clock {
namespace {

std::string error_loading(const std::string& text) {
  const std::string path = ::testing::TempDir() + "json_inputs_profile.json";
  std::ofstream(path) << text;
  try {
    load_profile_file(path);
  } catch (const std::invalid_argument& e) {
    std::remove(path.c_str());
    return e.what();
  }
  std::remove(path.c_str());
  return "";
}

TEST(JsonInputs, ProfileWithADuplicateKeyIsRefused) {
  const std::string e = error_loading(R"({"fibre": {"length_m": 10, "length_m": 5000}})");
  EXPECT_NE(e.find("json_inputs_profile.json"), std::string::npos) << e;
  EXPECT_NE(e.find("fibre.length_m: duplicate key"), std::string::npos) << e;
}

}  // namespace
}  // namespace lightrail::sim::clock
