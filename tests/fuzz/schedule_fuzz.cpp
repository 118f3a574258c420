// Schedule JSON: parse_schedule, then validate against the reference board
// and build_image. Every input is either refused with a lightrail::Error or
// turns into an image that the co-simulation's independent checker accepts
// and that reads back to the same document.
#include <cstddef>
#include <cstdint>
#include <string>

#include "board/image.hpp"
#include "fuzz_check.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"
#include "lightrail/image.hpp"
#include "lightrail/schedule_json.hpp"
#include "lightrail/schedule_json_value.hpp"
#include "lightrail/validate.hpp"

namespace lf = lightrail::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const lightrail::DeviceCapabilities caps = lightrail::DeviceCapabilities::reference();
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const lightrail::Schedule schedule = lightrail::parse_schedule(text);
    // The documented round trip: to_json reads back to the same schedule.
    const nlohmann::json doc = lightrail::to_json(schedule);
    if (lightrail::to_json(lightrail::parse_schedule(doc.dump())) != doc)
      lf::fail("to_json(parse_schedule(text)) does not read back to itself");
    if (!lightrail::validate(schedule, caps).empty()) return 0;
    std::vector<uint32_t> image = lightrail::build_image(schedule, caps);
    image.resize(lightrail::hwdef::MEM_BANK0_WORDS, 0);
    const auto decoded = lightrail::sim::decode_image(image);
    if (!decoded.valid) lf::fail("a validated schedule built an image the sim refuses: " + decoded.problem);
    if (decoded.steps.size() != schedule.steps.size() || decoded.cyclic != schedule.cyclic ||
        decoded.generation != schedule.generation)
      lf::fail("the image of a validated schedule decodes to a different program");
  } catch (const lightrail::Error& e) {
    lf::check_message(e, "parse_schedule/validate/build_image");
  } catch (const std::exception& e) {
    lf::fail(std::string("not a lightrail::Error: ") + e.what());
  }
  return 0;
}
