// The hidden --generate-doc option and the exit-code footer.
#include <iostream>
#include <sstream>

#include "cli_doc.hpp"

namespace lightrail::clidoc {

bool shown(const CLI::App& app, const CLI::Option* o) {
  if (o->get_group().empty()) return false;
  return app.get_parent() == nullptr || o != app.get_help_ptr();
}

std::string exit_code_footer(const std::vector<ExitCode>& codes) {
  std::ostringstream out;
  out << "Exit codes:";
  for (const ExitCode& c : codes) {
    out << "\n  " << c.code << "  " << c.name;
    if (!c.meaning.empty()) out << ": " << c.meaning;
  }
  return out.str();
}

void add_doc_option(CLI::App& app, Page page) {
  if (!page.exit_codes.empty()) app.footer(exit_code_footer(page.exit_codes));
  CLI::App* root = &app;
  app.add_option_function<std::string>(
         "--generate-doc",
         [root, page](const std::string& what) {
           std::cout << (what == "man" ? man_page(*root, page) : bash_completion(*root, page.program));
           throw CLI::Success();
         },
         "print the man page or the bash completion script")
      ->check(CLI::IsMember({"man", "bash-completion"}))
      ->group("");  // hidden: for the build, not for users
}

}  // namespace lightrail::clidoc
