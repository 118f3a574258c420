#include "kernel_ports.hpp"

#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace lightrail::test {

namespace {

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string attr(const std::string& tag, const std::string& name) {
  std::smatch m;
  if (std::regex_search(tag, m, std::regex("\\s" + name + "=\"([^\"]*)\""))) return m[1];
  return {};
}

}  // namespace

std::vector<std::string> argument_names(const std::string& path, const std::string& function) {
  const std::string text = slurp(path);
  // The definition: the signature followed by its body.
  const std::regex def("(^|\\n)void\\s+" + function + "\\s*\\(([^)]*)\\)\\s*\\{");
  std::smatch m;
  if (!std::regex_search(text, m, def))
    throw std::runtime_error("no definition of " + function + " in " + path);
  std::vector<std::string> names;
  std::string arg;
  int depth = 0;
  auto take = [&] {
    static const std::regex ident("[A-Za-z_][A-Za-z0-9_]*");
    std::string last;
    for (auto it = std::sregex_iterator(arg.begin(), arg.end(), ident); it != std::sregex_iterator(); ++it)
      last = it->str();
    if (last.empty()) throw std::runtime_error("argument without a name in " + function);
    names.push_back(last);
    arg.clear();
  };
  for (char c : std::string(m[2])) {
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (c == ',' && depth == 0) {
      take();
    } else {
      arg += c;
    }
  }
  take();
  return names;
}

std::vector<KernelPort> rtl_ports(const std::string& xml_path) {
  const std::string xml = slurp(xml_path);
  const auto top = xml.find("topModule=\"1\"");
  if (top == std::string::npos) throw std::runtime_error("no top module in " + xml_path);
  const auto end = xml.find("</module>", top);
  const std::string body = xml.substr(top, end - top);

  std::map<std::string, int> widths;  // dtype id -> bits
  const std::regex dtype("<basicdtype [^>]*>");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), dtype); it != std::sregex_iterator(); ++it) {
    const std::string tag = it->str();
    const std::string left = attr(tag, "left"), right = attr(tag, "right");
    widths[attr(tag, "id")] = left.empty() ? 1 : std::stoi(left) - std::stoi(right) + 1;
  }
  std::vector<KernelPort> ports;
  const std::regex var("<var [^>]*pinIndex=[^>]*>");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), var); it != std::sregex_iterator(); ++it) {
    const std::string tag = it->str();
    const auto w = widths.find(attr(tag, "dtype_id"));
    if (w == widths.end()) throw std::runtime_error("port " + attr(tag, "name") + " has no plain width");
    ports.push_back({attr(tag, "name"), w->second, attr(tag, "dir") == "output"});
  }
  return ports;
}

}  // namespace lightrail::test
