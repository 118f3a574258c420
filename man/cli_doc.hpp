// Man pages and bash completion written from a program's CLI11 definitions,
// so neither can drift from what the program accepts (docs/packaging.md).
// The build runs each program with the hidden `--generate-doc man` and
// `--generate-doc bash-completion` and installs what it prints.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace lightrail::clidoc {

// One exit code of a program: `--help` lists them in its footer and the man
// page in EXIT STATUS, from this one table.
struct ExitCode {
  int code;
  std::string name;     // a few words: "invalid input"
  std::string meaning;  // when it happens; may be empty
};

struct Page {
  std::string program;  // "lightrail"
  std::string version;  // "0.1.0", the page's footer
  std::vector<ExitCode> exit_codes;
  std::vector<std::string> see_also;  // "lightraild(1)"
};

// Whether `o` is documented: not hidden (CLI11's empty group), and not a
// subcommand's own --help (the program's --help stands for all of them).
bool shown(const CLI::App& app, const CLI::Option* o);
// Whether `o` takes a value (a flag does not).
inline bool takes_value(const CLI::Option* o) { return o->get_items_expected_max() > 0; }

// "Exit codes:" and one line per code, as `--help` ends.
std::string exit_code_footer(const std::vector<ExitCode>& codes);

// man(7) roff of `app` (section 1): every subcommand, option and positional
// not hidden (CLI11's empty group), and the exit codes.
std::string man_page(const CLI::App& app, const Page& page);

// A bash completion script: subcommands and options at each level, file
// names after an option that takes a value.
std::string bash_completion(const CLI::App& app, const std::string& program);

// Sets the footer to the exit codes and adds the hidden
// `--generate-doc man|bash-completion`, which prints the page or script and
// ends the parse like --version does (CLI::Success, exit 0). Call it after
// every option and subcommand is defined; the callback reads `app` then.
void add_doc_option(CLI::App& app, Page page);

}  // namespace lightrail::clidoc
