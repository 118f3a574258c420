// Generates the C++ header, the SystemVerilog package and the docs register
// table from defs/regmap.json, so every layer takes each fact from one place.
//
//   hwdef_gen REGMAP.json OUT_HPP OUT_SV OUT_MD
#include <fmt/format.h>

#include <cstdint>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

using nlohmann::json;

namespace {

uint64_t number(const json& v) {
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  return std::stoull(v.get<std::string>(), nullptr, 0);
}

uint64_t field_mask(const json& f) {
  const uint64_t width = f.at("width").get<uint64_t>();
  const uint64_t ones = width >= 64 ? ~0ULL : ((1ULL << width) - 1);
  return ones << f.at("lsb").get<uint64_t>();
}

// One constant, written for both languages from the same (name, value).
struct Emitter {
  std::ostringstream hpp, sv;
  void constant(const std::string& name, uint64_t value, const std::string& doc = {}) {
    if (!doc.empty()) {
      hpp << "// " << doc << "\n";
      sv << "  // " << doc << "\n";
    }
    // Small numbers read best in decimal, bit patterns and addresses in hex.
    const bool hex = value >= 65536 || name.size() > 5 && name.compare(name.size() - 5, 5, "_MASK") == 0;
    hpp << fmt::format(
        hex ? "inline constexpr uint32_t {} = 0x{:X}u;\n" : "inline constexpr uint32_t {} = {}u;\n", name,
        value);
    sv << fmt::format(
        hex ? "  localparam logic [31:0] {} = 32'h{:X};\n" : "  localparam logic [31:0] {} = 32'd{};\n", name,
        value);
  }
  void fields(const std::string& prefix, const json& list) {
    for (const auto& f : list) {
      const std::string n = prefix + "_" + f.at("name").get<std::string>();
      constant(n + "_LSB", f.at("lsb").get<uint64_t>(), f.value("doc", ""));
      constant(n + "_WIDTH", f.at("width").get<uint64_t>());
      constant(n + "_MASK", field_mask(f));
      if (f.contains("word")) constant(n + "_WORD", f.at("word").get<uint64_t>());
    }
  }
  // Sticky flag registers also get a table of their flags' names and
  // meanings, so the host prints what the register map says (C++ only).
  void flag_table(const std::string& reg, const json& list) {
    hpp << "inline constexpr Flag " << reg << "_FLAGS[] = {\n";
    auto quoted = [](const std::string& s) {
      std::string q;
      for (char c : s) {
        if (c == '"' || c == '\\') q += '\\';
        q += c;
      }
      return q;
    };
    for (const auto& f : list)
      hpp << fmt::format("    {{0x{:X}u, \"{}\", \"{}\"}},\n", field_mask(f), f.at("name").get<std::string>(),
                         quoted(f.value("doc", "")));
    hpp << "};\n";
  }
};

std::string access_name(const std::string& a) {
  if (a == "ro") return "read-only";
  if (a == "wo") return "write-only (pulses)";
  if (a == "rw1c") return "read, write 1 to clear";
  return "read/write";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: hwdef_gen REGMAP.json OUT_HPP OUT_SV OUT_MD\n";
    return 2;
  }
  json m;
  try {
    std::ifstream in(argv[1]);
    if (!in) throw std::runtime_error("cannot open");
    m = json::parse(in);
  } catch (const std::exception& e) {
    std::cerr << "hwdef_gen: " << argv[1] << ": " << e.what() << "\n";
    return 1;
  }

  Emitter e;
  std::ostringstream md;
  md << "# lightrail register map\n\n"
     << "Generated from `defs/regmap.json` by `defs/hwdef_gen`; do not edit.\n"
     << "Offsets are AXI4-Lite byte addresses; every register is 32 bits.\n\n"
     << "## Parameters\n\n| name | value | meaning |\n|---|---|---|\n";

  e.constant("REGMAP_VERSION", number(m.at("regmap_version")), "version of this register map");
  for (const auto& p : m.at("parameters")) {
    e.constant(p.at("name"), number(p.at("value")), p.value("doc", ""));
    md << fmt::format("| `{}` | {} | {} |\n", p.at("name").get<std::string>(), number(p.at("value")),
                      p.value("doc", ""));
  }

  md << "\n## Registers\n\n| offset | name | access | fields | meaning |\n|---|---|---|---|---|\n";
  for (const auto& r : m.at("registers")) {
    const std::string name = r.at("name");
    e.constant("REG_" + name, number(r.at("offset")), r.value("doc", ""));
    if (r.contains("value")) e.constant(name + "_VALUE", number(r.at("value")));
    std::string fields;
    if (r.contains("fields")) {
      e.fields(name, r.at("fields"));
      if (r.at("access") == "rw1c") e.flag_table(name, r.at("fields"));
      for (const auto& f : r.at("fields")) {
        const auto lsb = f.at("lsb").get<unsigned>(), w = f.at("width").get<unsigned>();
        fields += fmt::format(
            "{}`{}` [{}]: {}", fields.empty() ? "" : "<br>", f.at("name").get<std::string>(),
            w == 1 ? std::to_string(lsb) : fmt::format("{}:{}", lsb + w - 1, lsb), f.value("doc", ""));
      }
    }
    md << fmt::format("| 0x{:05X} | `{}` | {} | {} | {} |\n", number(r.at("offset")), name,
                      access_name(r.at("access")), fields, r.value("doc", ""));
  }

  // Which word offsets are registers: the rest of the register space is a
  // hole (DECERR), decided from this one list in every layer.
  e.hpp << "// Is this byte offset one of the registers above?\n"
        << "constexpr bool is_register(uint32_t offset) {\n  switch (offset) {\n";
  e.sv << "  // Is this byte offset one of the registers above?\n"
       << "  function automatic logic is_register(input logic [31:0] offset);\n    case (offset)\n";
  for (const auto& r : m.at("registers")) {
    const std::string name = r.at("name");
    e.hpp << "    case REG_" << name << ":\n";
    e.sv << "      REG_" << name << ": is_register = 1'b1;\n";
  }
  e.hpp << "      return true;\n    default:\n      return false;\n  }\n}\n";
  e.sv << "      default: is_register = 1'b0;\n    endcase\n  endfunction\n";

  md << "\n## Memories\n\n| base | name | 32-bit words | meaning |\n|---|---|---|---|\n";
  for (const auto& mem : m.at("memories")) {
    const std::string name = mem.at("name");
    e.constant("MEM_" + name + "_BASE", number(mem.at("offset")), mem.value("doc", ""));
    e.constant("MEM_" + name + "_WORDS", number(mem.at("words")));
    md << fmt::format("| 0x{:05X} | `{}` | {} | {} |\n", number(mem.at("offset")), name,
                      number(mem.at("words")), mem.value("doc", ""));
  }

  const json& img = m.at("image");
  e.constant("IMG_MAGIC", number(img.at("magic")), "schedule image magic");
  e.constant("IMG_VERSION", number(img.at("version")), "schedule image format version");
  e.constant("IMG_HEADER_WORDS", number(img.at("header_words")));
  md << fmt::format(
      "\n## Schedule image (one bank)\n\nMagic `0x{:08X}`, version {}. Word offsets within the "
      "bank.\n\n| word | header field | meaning |\n|---|---|---|\n",
      number(img.at("magic")), number(img.at("version")));
  for (const auto& h : img.at("header")) {
    e.constant("IMG_HDR_" + h.at("name").get<std::string>(), number(h.at("word")), h.value("doc", ""));
    md << fmt::format("| {} | `{}` | {} |\n", number(h.at("word")), h.at("name").get<std::string>(),
                      h.value("doc", ""));
  }
  e.fields("IMG_FLAGS", img.at("flags"));
  e.constant("IMG_CONFIG_BASE_WORD", number(img.at("config_base_word")),
             "first word of the configuration table");
  e.constant("IMG_CONFIG_WORDS", number(img.at("config_words")), "words per configuration");
  e.constant("IMG_PORT_BITS", number(img.at("port_bits")), "bits per port entry within a configuration");
  e.fields("IMG_PORT", img.at("port_fields"));
  e.constant("IMG_STEP_BASE_WORD", number(img.at("step_base_word")), "first word of the step table");
  e.constant("IMG_STEP_WORDS", number(img.at("step_words")), "words per step");
  e.fields("IMG_STEP", img.at("step_fields"));

  md << fmt::format(
      "\nConfiguration c occupies words {} + {}*c onward; port p is bits "
      "[{}*(p%4)+{}:{}*(p%4)] of word p/4 of it.\n\n| port field | bits | meaning |\n|---|---|---|\n",
      number(img.at("config_base_word")), number(img.at("config_words")), number(img.at("port_bits")),
      number(img.at("port_bits")) - 1, number(img.at("port_bits")));
  for (const auto& f : img.at("port_fields"))
    md << fmt::format("| `{}` | {}+{} | {} |\n", f.at("name").get<std::string>(), f.at("lsb").get<unsigned>(),
                      f.at("width").get<unsigned>(), f.value("doc", ""));
  md << fmt::format(
      "\nStep s occupies words {} + {}*s onward.\n\n| step field | word | bits | meaning "
      "|\n|---|---|---|---|\n",
      number(img.at("step_base_word")), number(img.at("step_words")));
  for (const auto& f : img.at("step_fields"))
    md << fmt::format("| `{}` | {} | {}+{} | {} |\n", f.at("name").get<std::string>(),
                      f.at("word").get<unsigned>(), f.at("lsb").get<unsigned>(),
                      f.at("width").get<unsigned>(), f.value("doc", ""));

  const std::string banner = "Generated from defs/regmap.json by defs/hwdef_gen; do not edit.";
  std::ofstream hpp(argv[2]), sv(argv[3]), doc(argv[4]);
  hpp << "// " << banner
      << "\n// clang-format off\n#pragma once\n\n#include <cstdint>\n\nnamespace lightrail::hwdef {\n\n"
      << "// One flag of a sticky flag register (<REG>_FLAGS[] below).\n"
      << "struct Flag {\n  uint32_t mask;\n  const char* name;\n  const char* meaning;\n};\n\n"
      << e.hpp.str() << "\n}  // namespace lightrail::hwdef\n";
  sv << "// " << banner << "\n// A package of constants: not every user needs every one.\n"
     << "/* verilator lint_off UNUSEDPARAM */\npackage lightrail_hwdef_pkg;\n"
     << e.sv.str() << "endpackage\n/* verilator lint_on UNUSEDPARAM */\n";
  doc << md.str();
  if (!hpp || !sv || !doc) {
    std::cerr << "hwdef_gen: cannot write outputs\n";
    return 1;
  }
  return 0;
}
