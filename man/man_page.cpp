// man(7) roff from a CLI11 app: NAME, SYNOPSIS, DESCRIPTION, OPTIONS, one
// subsection per subcommand (depth first, in definition order), EXIT STATUS.
#include <algorithm>
#include <cctype>
#include <sstream>

#include "cli_doc.hpp"

namespace lightrail::clidoc {
namespace {

// Text as roff reads it literally: backslashes escaped, hyphens as \-
// (a real minus, so options can be searched and copied), and a line that
// would start with a control character made safe with \&.
std::string roff(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
    line_start = c == '\n';
  }
  return out;
}

std::vector<const CLI::Option*> documented(const CLI::App& app) {
  return app.get_options([&app](const CLI::Option* o) { return shown(app, o); });
}

// "--device URI" / "-o, --output FILE" / "SCENARIO": the option as typed.
std::string option_term(const CLI::Option* o) {
  std::string term;
  if (o->nonpositional()) {
    std::vector<std::string> names;
    for (const std::string& s : o->get_snames()) names.push_back("\\fB\\-" + roff(s) + "\\fR");
    for (const std::string& l : o->get_lnames()) names.push_back("\\fB\\-\\-" + roff(l) + "\\fR");
    for (size_t i = 0; i < names.size(); ++i) term += (i ? ", " : "") + names[i];
    if (takes_value(o)) {
      std::string type = o->get_type_name();
      if (type.empty()) type = "VALUE";
      term += " \\fI" + roff(type) + "\\fR";
    }
  } else {
    std::string name = o->get_name(true);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::toupper(c); });
    term = "\\fI" + roff(name) + "\\fR";
  }
  return term;
}

std::string option_text(const CLI::Option* o) {
  std::string text = o->get_description();
  if (o->get_required()) text += " (required)";
  if (!o->get_default_str().empty()) text += " (default: " + o->get_default_str() + ")";
  if (o->get_items_expected_max() > 1) text += " (may be repeated)";
  return roff(text);
}

void options(std::ostringstream& out, const CLI::App& app) {
  for (const CLI::Option* o : documented(app)) {
    out << ".TP\n" << option_term(o) << "\n" << option_text(o) << "\n";
  }
}

std::vector<const CLI::App*> subcommands(const CLI::App& app) {
  return app.get_subcommands(
      [](const CLI::App* a) { return !a->get_name().empty() && !a->get_group().empty(); });
}

// The usage line of `path`: its positionals and, when it has them,
// [OPTIONS] and a subcommand.
std::string synopsis(const CLI::App& app, const std::string& path) {
  std::string s = "\\fB" + roff(path) + "\\fR";
  bool any_option = false;
  for (const CLI::Option* o : documented(app)) any_option |= o->nonpositional();
  if (any_option) s += " [\\fIOPTIONS\\fR]";
  for (const CLI::Option* o : documented(app)) {
    if (o->nonpositional()) continue;
    const std::string term = option_term(o);
    s += o->get_required() ? " " + term : " [" + term + "]";
  }
  if (!subcommands(app).empty()) s += " \\fICOMMAND\\fR";
  return s;
}

void commands(std::ostringstream& out, const CLI::App& app, const std::string& path) {
  for (const CLI::App* sub : subcommands(app)) {
    const std::string sub_path = path + " " + sub->get_name();
    out << ".SS \"" << roff(sub_path) << "\"\n"
        << synopsis(*sub, sub_path) << "\n.PP\n"
        << roff(sub->get_description()) << "\n";
    options(out, *sub);
    commands(out, *sub, sub_path);
  }
}

}  // namespace

std::string man_page(const CLI::App& app, const Page& page) {
  std::string upper = page.program;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  // The apps describe themselves as "program: what it does".
  std::string summary = app.get_description();
  if (summary.rfind(page.program + ": ", 0) == 0) summary = summary.substr(page.program.size() + 2);

  std::ostringstream out;
  out << ".\\\" Generated from " << page.program << "'s command line definitions (--generate-doc man).\n"
      << ".TH " << roff(upper) << " 1 \"\" \"" << roff(page.program + " " + page.version)
      << "\" \"User Commands\"\n"
      << ".SH NAME\n"
      << roff(page.program) << " \\- " << roff(summary) << "\n"
      << ".SH SYNOPSIS\n"
      << synopsis(app, page.program) << "\n"
      << ".SH DESCRIPTION\n"
      << roff(summary) << "\n";
  if (!subcommands(app).empty()) {
    out << ".PP\nCommands:\n";
    for (const CLI::App* sub : subcommands(app))
      out << ".TP\n.B " << roff(sub->get_name()) << "\n" << roff(sub->get_description()) << "\n";
  }
  out << ".SH OPTIONS\n";
  options(out, app);
  if (!subcommands(app).empty()) {
    out << ".SH COMMANDS\n";
    commands(out, app, page.program);
  }
  if (!page.exit_codes.empty()) {
    out << ".SH \"EXIT STATUS\"\n";
    for (const ExitCode& c : page.exit_codes) {
      out << ".TP\n.B " << c.code << "\n" << roff(c.name);
      if (!c.meaning.empty()) out << ": " << roff(c.meaning);
      out << "\n";
    }
  }
  if (!page.see_also.empty()) {
    out << ".SH \"SEE ALSO\"\n";
    for (size_t i = 0; i < page.see_also.size(); ++i) {
      const std::string& s = page.see_also[i];
      const size_t paren = s.find('(');
      out << ".BR " << roff(s.substr(0, paren)) << " " << s.substr(paren)
          << (i + 1 < page.see_also.size() ? "," : "") << "\n";
    }
  }
  return out.str();
}

}  // namespace lightrail::clidoc
