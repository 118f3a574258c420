// Writes the seed corpus of fuzz_board_image: the bank images of the given
// schedule files, of the largest program the reference board takes, and of
// near misses of a valid image (each with its CRC made right, so only the
// named field is wrong). Built from the driver at build time, so the seeds
// follow the image format.
//   make_board_seeds OUT_DIR SCHEDULE.json...
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "lightrail/capabilities.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"
#include "lightrail/image.hpp"
#include "lightrail/schedule_json.hpp"
#include "lightrail/validate.hpp"

namespace hw = lightrail::hwdef;

namespace {

void write(const std::string& path, const std::vector<uint32_t>& words) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(words.data()), std::streamsize(words.size() * sizeof(uint32_t)));
  if (!out) throw std::runtime_error("cannot write " + path);
}

lightrail::Schedule largest(const lightrail::DeviceCapabilities& caps) {
  lightrail::Schedule s;
  for (uint32_t c = 0; c < caps.max_configs; ++c) {
    lightrail::Configuration config;
    for (uint32_t p = 0; p < caps.ports; ++p)
      config.wavelength.push_back(p == c % caps.ports ? lightrail::kDark : int((c + p) % caps.wavelengths));
    s.configs.push_back(config);
  }
  for (uint32_t k = 0; k < caps.max_steps; ++k)
    s.steps.push_back({k % caps.max_configs, caps.min_step_ps() * 4, k % 7 == 3});
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: make_board_seeds OUT_DIR SCHEDULE.json...\n");
    return 2;
  }
  const std::string dir = argv[1];
  const auto caps = lightrail::DeviceCapabilities::reference();
  std::vector<uint32_t> valid;
  auto image_of = [&](const lightrail::Schedule& s, const std::string& name) {
    if (!lightrail::validate(s, caps).empty()) return;  // invalid schedules build no image
    const auto image = lightrail::build_image(s, caps);
    write(dir + "/" + name + ".bin", image);
    if (valid.empty()) valid = image;
  };
  for (int i = 2; i < argc; ++i) {
    std::string name = argv[i];
    name = name.substr(name.find_last_of('/') + 1);
    try {
      image_of(lightrail::load_schedule_file(argv[i]), name.substr(0, name.find('.')));
    } catch (const lightrail::Error&) {
      // not a schedule, or not one a board takes: no image
    }
  }
  image_of(largest(caps), "largest");
  if (valid.empty()) {
    std::fprintf(stderr, "make_board_seeds: no valid schedule given\n");
    return 1;
  }
  auto near_miss = [&](const std::string& name, const std::function<void(std::vector<uint32_t>&)>& change) {
    std::vector<uint32_t> image = valid;
    change(image);
    if (image.size() > hw::IMG_HDR_CRC) {
      try {
        image[hw::IMG_HDR_CRC] = lightrail::image_crc(image);
      } catch (const std::exception&) {
      }
    }
    write(dir + "/" + name + ".bin", image);
  };
  const uint32_t step1 = hw::IMG_STEP_BASE_WORD + hw::IMG_STEP_DURATION_HI_WORD;
  near_miss("bad_magic", [](auto& w) { w[hw::IMG_HDR_MAGIC] ^= 1; });
  near_miss("bad_version", [](auto& w) { w[hw::IMG_HDR_VERSION] += 1; });
  near_miss("no_steps", [](auto& w) { w[hw::IMG_HDR_N_STEPS] = 0; });
  near_miss("too_many_configs", [](auto& w) { w[hw::IMG_HDR_N_CONFIGS] = hw::MAX_CONFIGS + 1; });
  near_miss("step_config_out_of_range", [&](auto& w) {
    w[step1] = (w[step1] & ~hw::IMG_STEP_CONFIG_MASK) | (w[hw::IMG_HDR_N_CONFIGS] << hw::IMG_STEP_CONFIG_LSB);
  });
  near_miss("step_too_short", [&](auto& w) {
    w[hw::IMG_STEP_BASE_WORD + hw::IMG_STEP_DURATION_LO_WORD] = 1;
    w[step1] &= ~hw::IMG_STEP_DURATION_HI_MASK;
  });
  near_miss("word_past_the_end", [](auto& w) { w.push_back(0xFFFFFFFFu); });  // unused: ignored by both
  valid[hw::IMG_HDR_CRC] ^= 0x80000000u;
  write(dir + "/crc_flipped.bin", valid);
  valid.resize(hw::IMG_HEADER_WORDS);
  write(dir + "/header_only.bin", valid);
  return 0;
}
